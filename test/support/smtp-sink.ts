/** A real SMTP server in the test process (smtp-server), parsing mails with mailparser. */
import { ParsedMail, simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  parsed: ParsedMail;
}

export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  /** SMTP reply codes to answer the next DATA commands with (e.g. 451, 550); empty: accept. */
  readonly failures: { code: number; message: string }[] = [];
  dataAttempts = 0;
  private server!: SMTPServer;
  /** While set, every mail waits for it before SMTP answers (see {@link hold}). */
  private held: Promise<void> | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        this.dataAttempts++;
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => void this.answer(chunks, session.envelope.rcptTo, callback));
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * Holds every mail at the end of DATA (the sender waits for SMTP's answer) until the returned
   * function is called: a test shows that something answers without waiting for mail by holding the
   * server until the answer has arrived, instead of timing it.
   */
  hold(): () => void {
    let release!: () => void;
    this.held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.held = null;
      release();
    };
  }

  private async answer(
    chunks: Buffer[],
    rcptTo: { address: string }[],
    callback: (error?: Error | null) => void,
  ): Promise<void> {
    if (this.held) await this.held;
    const failure = this.failures.shift();
    if (failure) {
      return callback(Object.assign(new Error(failure.message), { responseCode: failure.code }));
    }
    const parsed = await simpleParser(Buffer.concat(chunks));
    this.mails.push({ to: rcptTo.map((rcpt) => rcpt.address), parsed });
    callback();
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async waitFor(count: number, timeoutMs = 15_000): Promise<ReceivedMail[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.mails.length < count) {
      if (Date.now() > deadline)
        throw new Error(`expected ${count} mails, got ${this.mails.length}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return this.mails;
  }
}
