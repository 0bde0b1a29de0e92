import { writeFile } from "node:fs/promises";
import { type ApiTarget, downloadFromApi } from "./api.ts";
import { contentDispositionName } from "./contentDispositionName.ts";

/**
 * Downloads `path` from the API into `output`, or when none is given into the file `named`
 * returns (given the name the answer's `Content-Disposition` suggests); says what it wrote on
 * stderr. A refusal writes nothing (exit 1 with the API's message and fields).
 */
export async function saveDownload(
  target: ApiTarget,
  path: string,
  output: string | undefined,
  named: (suggested: string | undefined) => string | Promise<string>,
): Promise<void> {
  const { bytes, contentDisposition } = await downloadFromApi(target, path);
  const file = output ?? (await named(contentDispositionName(contentDisposition)));
  await writeFile(file, bytes);
  process.stderr.write(`wrote ${file} (${bytes.length} bytes)\n`);
}
