// `npm run api-types`: rewrites client/api.generated.ts from the document a fresh test server serves.
import { writeFile } from "node:fs/promises";
import { API_TYPES_FILE, generateApiTypes } from "./api-types.ts";
import { TestServer } from "./server.ts";

const server = await TestServer.start();
try {
  const reply = await server.anonymous().get("/api/v1/openapi.json");
  await writeFile(API_TYPES_FILE, await generateApiTypes(reply.text));
} finally {
  await server.stop();
}
