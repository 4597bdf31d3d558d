import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.ts';

export type EmailKind = 'signup' | 'recovery' | 'magiclink' | 'email_change';

export type EmailMessage = {
  /** An auth email, or another feature's notice: the data export (its link, no code), a team invitation, a notification, a billing notice. */
  kind: EmailKind | 'data_export' | 'team_invitation' | 'notification' | 'billing';
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Kept in the development outbox so a person (or a test) can follow the flow without mail (auth's emails carry a code). */
  otp?: string;
  link: string;
  /** Extra headers (a notification's List-Unsubscribe and List-Unsubscribe-Post, RFC 2369 and 8058). */
  headers?: Record<string, string>;
};

export type Mailer = { transport: 'smtp' | 'outbox'; send: (message: EmailMessage) => Promise<void> };

export const outboxDir = (dataDir: string): string => path.join(dataDir, 'outbox');

/**
 * SMTP through nodemailer when SMTP_HOST is set; otherwise the development outbox: one JSON file
 * per message under $DATA_DIR/outbox, named so that they sort oldest first. Logs never carry the
 * link or the code.
 */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const smtp = config.smtp;
  if (smtp) {
    const transporter = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
    });
    return {
      transport: 'smtp',
      send: async (message) => {
        await transporter.sendMail({
          from: smtp.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          ...(message.headers ? { headers: message.headers } : {}),
        });
        log.info({ kind: message.kind }, 'auth email sent');
      },
    };
  }
  const dir = outboxDir(config.dataDir);
  return {
    transport: 'outbox',
    send: async (message) => {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const name = `${Date.now().toString().padStart(15, '0')}-${crypto.randomBytes(3).toString('hex')}-${message.kind}.json`;
      const file = path.join(dir, name);
      await fs.writeFile(file, JSON.stringify({ ...message, created_at: new Date().toISOString() }, null, 2), { mode: 0o600 });
      log.info({ kind: message.kind, file: name }, 'auth email kept in the development outbox (no SMTP configured)');
    },
  };
}
