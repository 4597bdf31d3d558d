import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { createSecretBox, decodeSecretKey, isSealed, loadSecretKey, SECRET_KEY_FILE } from './secret-box.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-secret-'));
  dirs.push(dir);
  return dir;
};

describe('the secret box', () => {
  const box = createSecretBox(crypto.randomBytes(32));

  it('seals to an enc:v1: value that opens only in its own place', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'auth_mfa_factors.secret:f1');
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'auth_mfa_factors.secret:f1')).not.toBe(sealed); // a fresh IV each time
    expect(box.open(sealed, 'auth_mfa_factors.secret:f1')).toEqual({ plaintext: 'JBSWY3DPEHPK3PXP', sealed: true });
    expect(() => box.open(sealed, 'auth_mfa_factors.secret:f2')).toThrow(/does not open with this installation's secret key/);
  });

  it('passes a value stored before encryption through, marked for re-sealing', () => {
    expect(box.open('JBSWY3DPEHPK3PXP', 'auth_mfa_factors.secret:f1')).toEqual({ plaintext: 'JBSWY3DPEHPK3PXP', sealed: false });
  });

  it('refuses another key with a message that names the setting', () => {
    const sealed = box.seal('secret', 'ctx');
    expect(() => createSecretBox(crypto.randomBytes(32)).open(sealed, 'ctx')).toThrow(
      /PARLEY_SECRET_KEY \(or \$DATA_DIR\/secret\.key\) is not the key it was sealed with/,
    );
  });
});

describe('the installation key', () => {
  it('PARLEY_SECRET_KEY is 32 bytes as base64 or hex; anything else is a configuration error', () => {
    const key = crypto.randomBytes(32);
    expect(decodeSecretKey(key.toString('base64'))).toEqual(key);
    expect(decodeSecretKey(key.toString('hex'))).toEqual(key);
    expect(decodeSecretKey(key.toString('base64url'))).toEqual(key);
    expect(decodeSecretKey('correct horse battery staple')).toBeUndefined();
    expect(decodeSecretKey(crypto.randomBytes(16).toString('base64'))).toBeUndefined();
    expect(loadConfig({ PARLEY_SECRET_KEY: key.toString('base64') }).secretKey).toBe(key.toString('base64'));
    expect(() => loadConfig({ PARLEY_SECRET_KEY: 'too-short' })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_SECRET_KEY: 'too-short' })).toThrow(/PARLEY_SECRET_KEY: must be 32 bytes as base64 or hex/);
  });

  it('without PARLEY_SECRET_KEY: a 0600 key file made on first start and read on the next', () => {
    const dataDir = tempDir();
    const first = loadSecretKey({ secretKey: undefined, dataDir });
    const file = path.join(dataDir, SECRET_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretKey({ secretKey: undefined, dataDir })).toEqual(first);
    expect(fs.readdirSync(dataDir)).toEqual([SECRET_KEY_FILE]);
  });

  it('PARLEY_SECRET_KEY wins over the file, and a damaged file is a clear error', () => {
    const dataDir = tempDir();
    const key = crypto.randomBytes(32);
    expect(loadSecretKey({ secretKey: key.toString('hex'), dataDir })).toEqual(key);
    expect(fs.existsSync(path.join(dataDir, SECRET_KEY_FILE))).toBe(false);
    fs.writeFileSync(path.join(dataDir, SECRET_KEY_FILE), 'garbage\n');
    expect(() => loadSecretKey({ secretKey: undefined, dataDir })).toThrow(/does not hold a 32-byte key/);
  });
});
