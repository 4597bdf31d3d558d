import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';

/** TOTP as auth-contract §4.11 has it: SHA1, 6 digits, 30 s steps. */
export function totpFor(secret: string, issuer: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) });
}

/** A new 160-bit shared secret, base32 as authenticator apps take it. */
export const newTotpSecret = (): string => new OTPAuth.Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app scans, with the parameters in GoTrue's order. */
export function totpUri(issuer: string, label: string, secret: string): string {
  return (
    `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(label)}` +
    `?algorithm=SHA1&digits=6&issuer=${encodeURIComponent(issuer)}&period=30&secret=${secret}`
  );
}

/** Raw SVG: the client adds the data: prefix itself. */
export function totpQrCode(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
}
