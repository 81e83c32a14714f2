// What a request's credential id names: an API token, or an app authorized through OAuth (whose grant id stands
// where a token's id would, in events' metadata, history and change feeds). Looked up where either may appear.
import type { ReadModels } from "../read-store/read-store.port.ts";

export interface CredentialRecord {
  readonly name: string;
  readonly revokedAt: string | null;
}

export async function credentialOf(
  views: Pick<ReadModels, "tokens" | "apps">,
  id: string,
): Promise<CredentialRecord | null> {
  return (await views.tokens.get(id)) ?? (await views.apps.get(id));
}
