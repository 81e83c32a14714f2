import { afterAll, describe, expect, it } from "vitest";
import { mentionedUserIds, mentionsAsText } from "../../shared/mentions/mentions.ts";
import { fillTemplate, fillTemplateTitle } from "../../shared/templates/fill-template.ts";
import { SharedPageRenderer } from "../../shared/share-links/render/render-shared-page.ts";
import { WorkerPool } from "../../shared/workers/worker-pool.ts";

const ann = "3f1c0c1e-1111-4111-8111-111111111111";
const bob = "3f1c0c1e-2222-4222-8222-222222222222";
const pool = new WorkerPool({ threads: 1, taskTimeLimitMs: 60_000, memoryMb: 512, queue: 8 });
afterAll(async () => {
  await pool.close();
});

describe("mentions in markdown", () => {
  it("finds each mentioned user once, in order, and nothing in ordinary links", () => {
    const markdown = `[@Ann](mention:${ann}) asks [@Bob](mention:${bob.toUpperCase()}) and [@Ann](mention:${ann}); see [docs](https://example.com/mention:${bob})`;
    expect(mentionedUserIds(markdown)).toEqual([ann, bob]);
  });

  it("are written as their text, without a link, for readers outside the service", () => {
    expect(mentionsAsText(`Ask [@Ann](mention:${ann}) or [the docs](https://example.com)`)).toBe(
      "Ask @Ann or [the docs](https://example.com)",
    );
  });

  it("show on a share page as the name in plain text, no link", async () => {
    const html = await new SharedPageRenderer(pool).render(`Ask [@Ann](mention:${ann}).`, {
      linkBase: "/s/sl_test",
      rootPageId: null,
      pages: {},
    });
    expect(html).toBe("<p>Ask @Ann.</p>");
  });
});

describe("template placeholders", () => {
  const values = { title: "Kick-off", now: new Date("2026-03-04T23:59:00Z"), author: "Ann" };

  it("fill {{title}}, {{date}} (the ISO date of the command's time) and {{author}}, and leave other braces", () => {
    expect(fillTemplate("# {{title}}\n{{ date }} by {{author}} {{other}}", values)).toBe(
      "# Kick-off\n2026-03-04 by Ann {{other}}",
    );
  });

  it("fill a title taken from the template, where {{title}} stands for nothing", () => {
    expect(fillTemplateTitle("{{title}} Standup {{date}}", values)).toBe("Standup 2026-03-04");
  });
});
