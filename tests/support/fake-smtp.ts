import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server (the real protocol, via smtp-server) that keeps what it receives, so the
 * nodemailer path is tested end to end without a mail provider.
 */
export async function startFakeSmtp(options: { holdFirst?: number } = {}): Promise<{
  port: number;
  messages: ParsedMail[];
  /** Messages received but never answered (`holdFirst`): the sender is left waiting, as on a hung mail server. */
  held: ParsedMail[];
  close: () => Promise<void>;
}> {
  const messages: ParsedMail[] = [];
  const held: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (_auth, _session, callback) => callback(null, { user: 'parley' }),
    onData: (stream, _session, callback) => {
      simpleParser(stream)
        .then((mail) => {
          if (held.length < (options.holdFirst ?? 0)) return void held.push(mail);
          messages.push(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages,
    held,
    // A held message's connection is still open: close it with the server rather than wait for it.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const connection of (server as unknown as { connections: Set<{ close: () => void }> }).connections ?? []) connection.close();
      }),
  };
}
