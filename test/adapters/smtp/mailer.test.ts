import { once } from "node:events";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SmtpMailer } from "../../../shared/adapters/smtp/smtp.mailer.ts";
import { DEFAULT_FROM } from "../../../shared/mail/sender.ts";
import { isNotSent } from "../../../shared/mail/mailer.port.ts";
import { mailerContract } from "../../contracts/mailer.contract.ts";
import { parseMimeMessage } from "../../support/mime-message.ts";
import { startSmtpServer, type TestSmtpServer, type TestSmtpServerOptions } from "../../support/smtp-server.ts";

mailerContract("SMTP to a server in the test process", async () => {
  const server = await startSmtpServer();
  return { mailer: SmtpMailer.fromUrl(server.url), delivered: async () => server.delivered(), cleanup: server.close };
});

const mail = (overrides: { to?: string; messageId?: string } = {}) => ({
  messageId: overrides.messageId ?? "attempt-1",
  to: overrides.to ?? "ann@example.com",
  subject: "Ann invited you",
  text: "Sign in to accept.",
});

/** A TCP server that is not an SMTP server: it does what `onConnection` says with each connection. */
async function startTcpServer(
  onConnection: (socket: Socket) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    onConnection(socket);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

async function elapsedMs(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}

describe("the SMTP mailer", () => {
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });
  async function smtpServer(options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
    const server = await startSmtpServer(options);
    stops.push(server.close);
    return server;
  }

  it("sends from the default sender, with the attempt's id as the Message-ID at the sender's domain", async () => {
    const server = await smtpServer();
    await SmtpMailer.fromUrl(server.url).send(mail({ messageId: "attempt-7" }));
    const [received] = server.received();
    expect(received?.mailFrom).toBe("no-reply@workspace.invalid");
    const headers = new Map(parseMimeMessage(received?.raw ?? "").headers);
    expect(headers.get("from")).toBe(DEFAULT_FROM);
    expect(headers.get("message-id")).toBe("<attempt-7@workspace.invalid>");
  });

  it("sends from the address it is given", async () => {
    const server = await smtpServer();
    await SmtpMailer.fromUrl(server.url, { from: "Acme <invites@acme.example>" }).send(
      mail({ messageId: "attempt-8" }),
    );
    const [received] = server.received();
    expect(received?.mailFrom).toBe("invites@acme.example");
    const headers = new Map(parseMimeMessage(received?.raw ?? "").headers);
    expect(headers.get("from")).toBe("Acme <invites@acme.example>");
    expect(headers.get("message-id")).toBe("<attempt-8@acme.example>");
  });

  it("sends to one recipient at most, or throws, when the address holds a comma", async () => {
    const server = await smtpServer();
    await SmtpMailer.fromUrl(server.url)
      .send(mail({ to: "ann@example.com, eve@example.com" }))
      .catch(() => undefined);
    const recipients = server.received().flatMap((received) => received.rcptTo);
    expect(recipients.length).toBeLessThanOrEqual(1);
    expect(recipients).not.toContain("eve@example.com");
  });

  it("throws when the server refuses the recipient, and nothing is delivered", async () => {
    const server = await smtpServer({ refuseRecipient: (address) => address.startsWith("nobody@") });
    await expect(SmtpMailer.fromUrl(server.url).send(mail({ to: "nobody@example.com" }))).rejects.toMatchObject({
      name: "SmtpSendError",
      code: "EENVELOPE",
      responseCode: 550,
      notSent: true,
      permanent: true,
    });
    expect(server.received()).toEqual([]);
  });

  it("throws at once when no server listens on the port", async () => {
    const freed = await startTcpServer(() => undefined);
    await freed.close();
    const mailer = SmtpMailer.fromUrl(`smtp://127.0.0.1:${freed.port}`);
    const elapsed = await elapsedMs(() =>
      expect(mailer.send(mail())).rejects.toMatchObject({
        name: "SmtpSendError",
        message: expect.stringMatching(/ECONNREFUSED/),
        notSent: true,
        permanent: false,
      }),
    );
    expect(elapsed).toBeLessThan(5_000);
  });

  it("throws within the greeting timeout when the server accepts the connection but never answers", async () => {
    const silent = await startTcpServer(() => undefined);
    stops.push(silent.close);
    const mailer = SmtpMailer.fromUrl(`smtp://127.0.0.1:${silent.port}`, { greetingTimeoutMs: 300 });
    const elapsed = await elapsedMs(() =>
      expect(mailer.send(mail())).rejects.toMatchObject({ name: "SmtpSendError", code: "ETIMEDOUT" }),
    );
    expect(elapsed).toBeLessThan(5_000);
  });

  it("throws when the server drops the connection mid-conversation", async () => {
    const dropping = await startTcpServer((socket) => {
      socket.write("220 localhost ESMTP\r\n");
      socket.once("data", () => socket.destroy());
    });
    stops.push(dropping.close);
    await expect(SmtpMailer.fromUrl(`smtp://127.0.0.1:${dropping.port}`).send(mail())).rejects.toMatchObject({
      code: "ECONNECTION",
    });
  });

  it("leaves the outcome unknown when the connection drops after the message was transmitted", async () => {
    // A server that takes the whole message and vanishes before answering it: the mail may have left.
    const vanishing = await startTcpServer((socket) => {
      socket.write("220 localhost ESMTP\r\n");
      let inData = false;
      let buffered = "";
      socket.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        if (inData) {
          if (buffered.includes("\r\n.\r\n")) socket.destroy();
          return;
        }
        for (let end = buffered.indexOf("\r\n"); end >= 0; end = buffered.indexOf("\r\n")) {
          const line = buffered.slice(0, end).toUpperCase();
          buffered = buffered.slice(end + 2);
          if (line.startsWith("EHLO") || line.startsWith("HELO")) socket.write("250 localhost\r\n");
          else if (line.startsWith("MAIL") || line.startsWith("RCPT")) socket.write("250 ok\r\n");
          else if (line.startsWith("DATA")) {
            socket.write("354 go ahead\r\n");
            inData = true;
            return;
          }
        }
      });
    });
    stops.push(vanishing.close);
    const failure = await SmtpMailer.fromUrl(`smtp://127.0.0.1:${vanishing.port}`)
      .send(mail())
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(Error);
    expect(isNotSent(failure)).toBe(false);
  });

  it("authenticates with the URL's credentials when the server requires them", async () => {
    const credentials = { user: "mailer@example.com", pass: "p@ss:w/rd" };
    const server = await smtpServer({ credentials });
    const url = `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${server.port}`;
    await SmtpMailer.fromUrl(url).send(mail());
    expect(server.received().map((received) => received.user)).toEqual(["mailer@example.com"]);
  });

  it("throws, without repeating the password, when the server refuses the credentials", async () => {
    const server = await smtpServer({ credentials: { user: "mailer", pass: "right" } });
    const error: unknown = await SmtpMailer.fromUrl(`smtp://mailer:wrong-secret@127.0.0.1:${server.port}`)
      .send(mail())
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toMatchObject({ code: "EAUTH" });
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain("wrong-secret");
    expect(server.received()).toEqual([]);
  });

  it("throws when the server requires credentials and the URL has none", async () => {
    const server = await smtpServer({ credentials: { user: "mailer", pass: "right" } });
    await expect(SmtpMailer.fromUrl(server.url).send(mail())).rejects.toMatchObject({ name: "SmtpSendError" });
    expect(server.received()).toEqual([]);
  });

  it("logs nothing, even when the URL asks nodemailer to", async () => {
    const server = await smtpServer();
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      await SmtpMailer.fromUrl(`${server.url}?logger=true&debug=true`).send(mail());
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
    expect(server.received()).toHaveLength(1);
  });

  it("refuses a URL that is not smtp:// or smtps://, without repeating it", () => {
    for (const url of ["http://mailer:secret@example.com", "smtp://", "not a url secret"]) {
      expect(() => SmtpMailer.fromUrl(url)).toThrow(/invalid SMTP URL/);
      expect(() => SmtpMailer.fromUrl(url)).not.toThrow(/secret/);
    }
  });
});
