// Test helper: makes sure a schema version is synced (and verified against the lock) before a test
// reads it.
import { readLock, readSources, schemaDir } from "./_sources.ts";
import { chooseSource, sync } from "./sync.ts";

const done = new Map<string, Promise<string>>();

/**
 * Syncs `version` into `spec/schemas/<version>/` from `ADCP_UPSTREAM` (or the site), as
 * `deno task sync --version` would but without re-pinning, and returns the folder. Idempotent:
 * verified files are not fetched again.
 */
export function ensureSynced(version: string): Promise<string> {
  let synced = done.get(version);
  if (synced === undefined) {
    synced = (async () => {
      const sources = await readSources();
      const source = chooseSource(sources, Deno.env.get("ADCP_UPSTREAM"));
      await sync(sources, await readLock(), { version, source, update: false, check: false });
      return schemaDir(version);
    })();
    done.set(version, synced);
  }
  return synced;
}
