import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server (the real protocol, via smtp-server) that keeps what it receives, so the
 * nodemailer path is tested end to end without a mail provider.
 */
export async function startFakeSmtp(): Promise<{ port: number; messages: ParsedMail[]; close: () => Promise<void> }> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (_auth, _session, callback) => callback(null, { user: 'parley' }),
    onData: (stream, _session, callback) => {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
