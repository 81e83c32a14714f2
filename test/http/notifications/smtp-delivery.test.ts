// The all-in-one server with SMTP_URL set delivers invitation emails to a real SMTP server, and records a
// recipient the server refuses as a failed delivery.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestServer, type TestUser } from "../../support/server.ts";
import { startSmtpServer, type TestSmtpServer } from "../../support/smtp-server.ts";

let smtp: TestSmtpServer;
let server: TestServer;
let owner: TestUser;
beforeAll(async () => {
  smtp = await startSmtpServer({ refuseRecipient: (address) => address.startsWith("ghost@") });
  server = await TestServer.start({
    settings: { SMTP_URL: smtp.url, PUBLIC_BASE_URL: "https://workspace.example.com" },
  });
  owner = await server.registered("owner", { name: "Olive <Owner>" });
});
afterAll(async () => {
  await server.stop();
  await smtp.close();
});

async function deliveryStatusOf(pageId: string, email: string): Promise<string | undefined> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const shares = await owner.get(`/shares/entity/page/${pageId}`);
    const invitation = (shares.body.pendingInvitations as Array<{ email: string; deliveryStatus: string }>).find(
      (i) => i.email === email,
    );
    if (invitation && invitation.deliveryStatus !== "pending") return invitation.deliveryStatus;
    if (Date.now() > deadline) return invitation?.deliveryStatus;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("invitations over SMTP", () => {
  it("sends the invitation to the SMTP server with the inviter's name, what is shared and a link", async () => {
    const page = await owner.post("/pages", { title: "Shared by mail" });
    const invited = await owner.post(`/shares/entity/page/${String(page.body.id)}/grants`, {
      email: "newcomer@example.com",
      permission: "edit",
    });
    expect(invited.status).toBe(202);
    expect(await deliveryStatusOf(String(page.body.id), "newcomer@example.com")).toBe("sent");
    const mails = smtp.delivered().filter((mail) => mail.to === "newcomer@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain("Olive <Owner>");
    expect(mails[0]?.html).toContain("Olive &lt;Owner&gt;");
    expect(mails[0]?.text).toContain("edit");
    expect(mails[0]?.text).toContain("https://workspace.example.com");
    expect(mails[0]?.html).toContain('<a href="https://workspace.example.com">');
  });

  it("records a refused recipient as a failed delivery", async () => {
    const page = await owner.post("/pages", { title: "Nobody home" });
    await owner.post(`/shares/entity/page/${String(page.body.id)}/grants`, {
      email: "ghost@example.com",
      permission: "view",
    });
    expect(await deliveryStatusOf(String(page.body.id), "ghost@example.com")).toBe("failed");
    expect(smtp.delivered().filter((mail) => mail.to === "ghost@example.com")).toEqual([]);
  });
});
