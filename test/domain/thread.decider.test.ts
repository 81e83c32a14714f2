// The thread decider in given-events / when-command / then-events form.
import { randomUUID } from "node:crypto";
import { describe, it } from "vitest";
import { threadDecider, type ThreadCommand, type ThreadEvent } from "../../shared/threads/thread.decider.ts";
import { commentIdSchema, pageIdSchema, threadIdSchema, userIdSchema } from "../../shared/kernel/ids.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const threadId = threadIdSchema.parse(randomUUID());
const pageId = pageIdSchema.parse(randomUUID());
const otherPageId = pageIdSchema.parse(randomUUID());
const firstId = commentIdSchema.parse(randomUUID());
const replyId = commentIdSchema.parse(randomUUID());
const ann = userIdSchema.parse(randomUUID());
const bob = userIdSchema.parse(randomUUID());
const anchor = { quote: "the quoted words", prefix: "before ", suffix: " after" };

const opened: ThreadEvent[] = [
  { type: "ThreadOpened", data: { threadId, pageId, anchor, createdBy: ann } },
  { type: "CommentAdded", data: { threadId, commentId: firstId, authorId: ann, body: "first", pageId } },
];
const resolved: ThreadEvent = { type: "ThreadResolved", data: { threadId, resolvedBy: bob } };
const firstDeleted: ThreadEvent = { type: "CommentDeleted", data: { threadId, commentId: firstId } };

const { given } = deciderSpec(threadDecider);

const edit = (actorId = ann, body = "changed", onPage = pageId): ThreadCommand => ({
  type: "EditComment",
  threadId,
  pageId: onPage,
  commentId: firstId,
  actorId,
  body,
});
const remove = (actorId = ann): ThreadCommand => ({
  type: "DeleteComment",
  threadId,
  pageId,
  commentId: firstId,
  actorId,
});
const setStatus = (status: "open" | "resolved", onPage = pageId): ThreadCommand => ({
  type: "SetThreadStatus",
  threadId,
  pageId: onPage,
  status,
  actorId: bob,
});
const reply = (onPage = pageId): ThreadCommand => ({
  type: "AddReply",
  threadId,
  pageId: onPage,
  commentId: replyId,
  authorId: bob,
  body: "an answer",
});

describe("thread decider", () => {
  it("OpenThread opens the thread with its first comment", () => {
    given([])
      .when({ type: "OpenThread", threadId, pageId, anchor, commentId: firstId, authorId: ann, body: "first" })
      .then(opened);
  });

  it("a thread cannot be opened twice", () => {
    given(opened)
      .when({ type: "OpenThread", threadId, pageId, anchor, commentId: replyId, authorId: ann, body: "again" })
      .thenRefuses("conflict");
  });

  it("anyone who may comment can reply, also on a resolved thread", () => {
    const added: ThreadEvent = {
      type: "CommentAdded",
      data: { threadId, commentId: replyId, authorId: bob, body: "an answer", pageId },
    };
    given(opened).when(reply()).then([added]);
    given([...opened, resolved])
      .when(reply())
      .then([added]);
  });

  it("a thread addressed through another page or never opened is not found", () => {
    given([]).when(reply()).thenRefuses("not_found");
    given(opened).when(reply(otherPageId)).thenRefuses("not_found");
    given(opened)
      .when(edit(ann, "changed", otherPageId))
      .thenRefuses("not_found");
    given(opened).when(setStatus("resolved", otherPageId)).thenRefuses("not_found");
  });

  it("the author edits a comment; the same body again records nothing", () => {
    given(opened)
      .when(edit())
      .then([{ type: "CommentEdited", data: { threadId, commentId: firstId, body: "changed", pageId } }]);
    given(opened).when(edit(ann, "first")).then([]);
  });

  it("nobody but the author edits or deletes a comment", () => {
    given(opened).when(edit(bob)).thenRefuses("forbidden");
    given(opened).when(remove(bob)).thenRefuses("forbidden");
  });

  it("an unknown comment is not found", () => {
    given(opened)
      .when({ type: "EditComment", threadId, pageId, commentId: replyId, actorId: ann, body: "x" })
      .thenRefuses("not_found");
  });

  it("the author deletes a comment once; deleting again records nothing and editing it is a conflict", () => {
    given(opened).when(remove()).then([firstDeleted]);
    given([...opened, firstDeleted])
      .when(remove())
      .then([]);
    given([...opened, firstDeleted])
      .when(edit())
      .thenRefuses("conflict");
  });

  it("ThreadResolved on resolving an open thread, ThreadReopened on reopening a resolved one", () => {
    given(opened).when(setStatus("resolved")).then([resolved]);
    given([...opened, resolved])
      .when(setStatus("open"))
      .then([{ type: "ThreadReopened", data: { threadId, reopenedBy: bob } }]);
  });

  it("asking for the status a thread already has records nothing", () => {
    given(opened).when(setStatus("open")).then([]);
    given([...opened, resolved])
      .when(setStatus("resolved"))
      .then([]);
  });
});
