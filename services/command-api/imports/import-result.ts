// What POST /imports/obsidian answers: counts of what this request created, and every file it reported.
import { z } from "zod";

export const importResult = z.object({
  foldersCreated: z.number().int(),
  pagesCreated: z.number().int(),
  imagesUploaded: z.number().int(),
  backlinksCreated: z.number().int(),
  errors: z.array(z.string()),
}).meta({ id: "ImportResult", description: "What a vault import created, and every file it reported" });
export type ImportResult = z.infer<typeof importResult>;
