import net from 'node:net';

/** One SMTP reply: its code and its text (the lines of a multi-line reply joined). */
export interface SmtpReply {
  code: number;
  text: string;
}

/**
 * An SMTP client that says exactly what a test tells it, on a plain socket: for what nodemailer
 * will not do (declare SIZE, stop halfway, trickle bytes, keep connections open) and for sending
 * a big message without encoding it in the test's own event loop.
 */
export class SmtpRawClient {
  private buffer = '';
  private waiting: ((reply: SmtpReply) => void) | null = null;
  private readonly replies: SmtpReply[] = [];
  /** Set once the server closed the connection. */
  closed = false;

  readonly socket: net.Socket;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (;;) {
        const reply = /^(\d{3}) (.*)\r\n/m.exec(this.buffer);
        if (!reply) break;
        const end = reply.index + reply[0].length;
        const lines = this.buffer.slice(0, end).split('\r\n').filter(Boolean);
        this.buffer = this.buffer.slice(end);
        this.deliver({
          code: Number(reply[1]),
          text: lines.map((line) => line.slice(4)).join('\n'),
        });
      }
    });
    socket.on('close', () => {
      this.closed = true;
      this.deliver({ code: 0, text: 'connection closed' });
    });
    socket.on('error', () => undefined);
  }

  private deliver(reply: SmtpReply): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(reply);
    else this.replies.push(reply);
  }

  static async connect(port: number): Promise<{ client: SmtpRawClient; greeting: SmtpReply }> {
    const socket = net.connect(port, '127.0.0.1');
    const client = new SmtpRawClient(socket);
    const greeting = await client.reply();
    return { client, greeting };
  }

  /** The next reply (code 0 when the connection closed first). */
  reply(): Promise<SmtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.closed) return Promise.resolve({ code: 0, text: 'connection closed' });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** Sends one command line and answers its reply. */
  async command(line: string): Promise<SmtpReply> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  /**
   * A whole transaction: EHLO (once per call), MAIL FROM (with `mailParams`, e.g. `SIZE=…`), each
   * RCPT TO, DATA, the message (lines beginning with a dot are escaped) and the final dot.
   * Answers the first refusal, or the reply to the message.
   */
  async send(envelope: {
    from: string;
    to: string[];
    data: Buffer | string;
    mailParams?: string;
  }): Promise<SmtpReply> {
    const ehlo = await this.command('EHLO client.test');
    if (ehlo.code !== 250) return ehlo;
    const mail = await this.command(
      `MAIL FROM:<${envelope.from}>${envelope.mailParams ? ` ${envelope.mailParams}` : ''}`,
    );
    if (mail.code !== 250) return mail;
    let accepted = 0;
    let refusal: SmtpReply | null = null;
    for (const to of envelope.to) {
      const rcpt = await this.command(`RCPT TO:<${to}>`);
      if (rcpt.code === 250) accepted += 1;
      else refusal ??= rcpt;
    }
    if (accepted === 0) {
      await this.command('RSET');
      return refusal ?? { code: 0, text: 'no recipient' };
    }
    const data = await this.command('DATA');
    if (data.code !== 354) return data;
    this.socket.write(stuffDots(envelope.data));
    this.socket.write('\r\n.\r\n');
    return this.reply();
  }

  async quit(): Promise<void> {
    if (!this.closed) await this.command('QUIT');
    this.socket.destroy();
  }
}

/** RFC 5321 §4.5.2: a line that begins with a dot gets one more. */
function stuffDots(data: Buffer | string): Buffer {
  const text = typeof data === 'string' ? Buffer.from(data) : data;
  if (!text.includes('\n.')) return text;
  return Buffer.from(text.toString('latin1').replace(/\n\./g, '\n..'), 'latin1');
}
