// Branded identifiers: a folder id cannot be passed where a page id goes.
import { z } from "zod";

export const userIdSchema = z.uuid().brand<"UserId">();
export const pageIdSchema = z.uuid().brand<"PageId">();
export const folderIdSchema = z.uuid().brand<"FolderId">();
export const threadIdSchema = z.uuid().brand<"ThreadId">();
export const commentIdSchema = z.uuid().brand<"CommentId">();
export const tokenIdSchema = z.uuid().brand<"TokenId">();
export const invitationIdSchema = z.uuid().brand<"InvitationId">();
export const imageIdSchema = z.uuid().brand<"ImageId">();
export const shareLinkIdSchema = z.uuid().brand<"ShareLinkId">();
export const attachmentIdSchema = z.uuid().brand<"AttachmentId">();
export const groupIdSchema = z.uuid().brand<"GroupId">();

export type UserId = z.infer<typeof userIdSchema>;
export type PageId = z.infer<typeof pageIdSchema>;
export type FolderId = z.infer<typeof folderIdSchema>;
export type ThreadId = z.infer<typeof threadIdSchema>;
export type CommentId = z.infer<typeof commentIdSchema>;
export type TokenId = z.infer<typeof tokenIdSchema>;
export type InvitationId = z.infer<typeof invitationIdSchema>;
export type ImageId = z.infer<typeof imageIdSchema>;
export type ShareLinkId = z.infer<typeof shareLinkIdSchema>;
export type AttachmentId = z.infer<typeof attachmentIdSchema>;
export type GroupId = z.infer<typeof groupIdSchema>;
