// Where a created resource lives: the Location header of the answer that creates it. A path, not a URL: a
// client resolves it against the address it called, so it stays right behind the gateway or any other proxy.

/** Every public route is under this prefix. */
export const API_PREFIX = "/api/v1";

export const locationOf = {
  page: (pageId: string) => `${API_PREFIX}/pages/${pageId}`,
  folder: (folderId: string) => `${API_PREFIX}/folders/${folderId}`,
  image: (imageId: string) => `${API_PREFIX}/images/${imageId}`,
  attachment: (attachmentId: string) => `${API_PREFIX}/attachments/${attachmentId}`,
  /** A comment is edited and deleted there; its thread is listed with the page's (GET /pages/{pageId}/comments). */
  comment: (pageId: string, commentId: string) => `${API_PREFIX}/pages/${pageId}/comments/${commentId}`,
  token: (tokenId: string) => `${API_PREFIX}/tokens/${tokenId}`,
  webhook: (webhookId: string) => `${API_PREFIX}/webhooks/${webhookId}`,
  group: (groupId: string) => `${API_PREFIX}/groups/${groupId}`,
  invitation: (invitationId: string) => `${API_PREFIX}/shares/invitations/${invitationId}`,
  shareLink: (linkId: string) => `${API_PREFIX}/share-links/${linkId}`,
} as const;
