// The share-link tools: create_share_link and revoke_share_link (pages:write), list_share_links (pages:read), through
// the capability functions the HTTP routes call. A created link's url carries its secret: it is in that tool result
// alone (stored only as its hash, never logged), so the tool takes no idempotency key, whose replay would store it.
import { z } from "zod";
import { shareLinkIdSchema } from "../../../shared/kernel/ids.ts";
import { createShareLink } from "../../../shared/share-links/create-share-link.ts";
import { listShareLinks } from "../../../shared/share-links/list-share-links.ts";
import { revokeShareLink } from "../../../shared/share-links/revoke-share-link.ts";
import { shareLinkEntityTypeSchema } from "../../../shared/share-links/share-link.decider.ts";
import {
  createShareLinkFields,
  FILTER_MESSAGE,
  filterNamesBoth,
  shareLinkFilterFields,
} from "../../../shared/share-links/share-link.fields.ts";
import { shareLinkResource } from "../../../shared/share-links/share-link.resource.ts";
import { value } from "../../command-api/answers/answer.ts";
import { shareLinkAnswer } from "../../command-api/answers/share-link.answer.ts";
import type { CommandApiPorts } from "../../command-api/command-api-ports.ts";
import { ADDITIVE, defineTool, DESTRUCTIVE, READ_ONLY, type McpTool } from "../mcp-tool.ts";
import { toolWrites, writeOutput } from "../write-outcome.ts";

const createdOutput = writeOutput({}).extend({
  link: shareLinkResource.describe("the link; its url (with the secret) is shown this once"),
});
const revokedOutput = writeOutput({});

export function shareLinkTools(ports: CommandApiPorts): McpTool[] {
  const writes = toolWrites(ports);
  return [
    defineTool({
      name: "create_share_link",
      title: "Create a public share link",
      description:
        "A public read-only link to a page or folder you may share (admin), optionally expiring, password-protected or open to search engines. Its url is answered this once: give it to whoever should read; it cannot be shown again.",
      scope: "pages:write",
      budget: "write",
      input: createShareLinkFields.extend({
        entityType: shareLinkEntityTypeSchema.default("page"),
        entityId: z.uuid().describe("the page's (or folder's) id"),
      }),
      output: createdOutput,
      annotations: { ...ADDITIVE, title: "Create a share link" },
      async run(args, caller) {
        const { entityType, entityId, ...fields } = args;
        const actor = caller.actor();
        const { id, position, link } = await createShareLink(ports, actor, { entityType, entityId }, fields);
        const settled = await writes.settle(actor, position, {
          id,
          answer: shareLinkAnswer(id, () => link, link.url).map((recorded) => ({ link: recorded })),
        });
        // Not yet visible: the link as created, since its url cannot be answered later.
        return createdOutput.parse({ link, ...settled });
      },
    }),
    defineTool({
      name: "list_share_links",
      title: "List share links",
      description:
        "Your share links, or with entityType and entityId those of a page or folder you may share, newest first: settings, views and revocation (never their urls).",
      scope: "pages:read",
      budget: "read",
      input: z
        .object({
          ...shareLinkFilterFields,
          limit: z.number().int().min(1).max(100).default(50),
          cursor: z.string().min(1).max(200).optional(),
        })
        .refine(filterNamesBoth, FILTER_MESSAGE),
      output: z.object({ links: z.array(shareLinkResource), nextCursor: z.string().nullable() }),
      annotations: { ...READ_ONLY, title: "List share links" },
      async run(args, caller) {
        const { data, nextCursor } = await listShareLinks(ports.views, caller.principal, args);
        return { links: data, nextCursor };
      },
    }),
    defineTool({
      name: "revoke_share_link",
      title: "Revoke a share link",
      description: "Ends a share link for good: its url answers not found from then on.",
      scope: "pages:write",
      budget: "write",
      input: z.object({ linkId: shareLinkIdSchema }),
      output: revokedOutput,
      annotations: { ...DESTRUCTIVE, idempotentHint: true, title: "Revoke a share link" },
      async run(args, caller) {
        const actor = caller.actor();
        const { position } = await revokeShareLink(ports, actor, args.linkId);
        return revokedOutput.parse(await writes.settle(actor, position, { id: args.linkId, answer: value({}) }));
      },
    }),
  ];
}
