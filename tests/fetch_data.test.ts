/**
 * Tests of `fetch-data`: a local HTTP server (127.0.0.1, port 0) serves zip archives built here
 * with fflate from a fake repository tree, described by a small test manifest; plus
 * data-backed checks that each registered benchmark's committed manifest matches the shared
 * data directory and that their merged manifest fetches it whole.
 *
 * @example
 * ```sh
 * npx -y deno@2.9.6 test --allow-all tests/fetch_data.test.ts
 * ```
 * @module
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import {
  fetchData,
  FetchDataError,
  type FetchOptions,
  type Manifest,
  type ManifestFile,
  verifyFiles,
} from "@runlens/data/fetch.ts";
import { buildManifest, formatManifest } from "@runlens/data/make_manifest.ts";
import { benchmarkManifest, dataFolders, pinnedManifest } from "@runlens/benchmarks/data.ts";
import { benchmarks } from "@runlens/benchmarks/registry.ts";
import { fetchDataMain } from "@runlens/cli/fetch_data.ts";
import { dataTest } from "./_data.ts";

const NEW = "0123456789abcdef0123456789abcdef01234567";
const OLD = "fedcba9876543210fedcba9876543210fedcba98";
const OTHER = "1111111111222222222233333333334444444444";

/** The fake repositories: `repo@commit` → files of the tree (all written for this test). */
const TREES: Record<string, Record<string, string>> = {
  [`acme/demo-repo@${NEW}`]: {
    "README.md": "# Demo repo\n\nA fake release for the fetch-data tests.\n",
    "data/tasks.json": '{"examples": [{"input": "1 + 1", "target": "2"}]}\n',
    "leaderboard.md": "| model | score |\n| a | 1.0 |\n",
    "code/run.py": "print('code is never extracted')\n",
  },
  [`acme/demo-repo@${OLD}`]: {
    "README.md": "# Demo repo (old)\n",
    "leaderboard.md": "| model | task 1 | task 2 |\n| a | 0.5 | 1.5 |\n",
  },
  [`acme/other@${OTHER}`]: { "notes/a.txt": "other folder\n" },
};

/** Local path → [source, repo path]. */
const LAYOUT: Record<string, [string, string]> = {
  "demo/README.md": [`acme/demo-repo@${NEW}`, "README.md"],
  "demo/data/tasks.json": [`acme/demo-repo@${NEW}`, "data/tasks.json"],
  "demo/leaderboard.md": [`acme/demo-repo@${NEW}`, "leaderboard.md"],
  "demo/leaderboard-old.md": [`acme/demo-repo@${OLD}`, "leaderboard.md"],
  "other/notes/a.txt": [`acme/other@${OTHER}`, "notes/a.txt"],
};

const sha = (text: string) => createHash("sha256").update(strToU8(text)).digest("hex");

function testManifest(): Manifest {
  const sources: Manifest["sources"] = {};
  for (const id of Object.keys(TREES)) {
    const [repo, commit] = id.split("@");
    sources[id] = {
      folder: repo === "acme/other" ? "other" : "demo",
      repo,
      commit,
      archive: `https://codeload.github.com/${repo}/zip/${commit}`,
      archiveAlt: `https://github.com/${repo}/archive/${commit}.zip`,
    };
  }
  const files: ManifestFile[] = Object.entries(LAYOUT).map(([path, [source, repoPath]]) => {
    const text = TREES[source][repoPath];
    return { path, repoPath, source, size: strToU8(text).length, sha256: sha(text) };
  });
  return { description: "test manifest", sources, files };
}

/** The GitHub-style zip of a tree: everything under `<repo>-<commit>/`. */
function archive(
  id: string,
  tamper?: (path: string, text: string) => string,
): Uint8Array<ArrayBuffer> {
  const [repo, commit] = id.split("@");
  const top = `${repo.split("/")[1]}-${commit}`;
  const entries = Object.entries(TREES[id]).map((
    [p, t],
  ) => [`${top}/${p}`, strToU8(tamper ? tamper(p, t) : t)]);
  return new Uint8Array(zipSync(Object.fromEntries(entries)));
}

type Handler = (path: string) => Response;

/** Serve archives at `/<owner>/<repo>/zip/<commit>` (or a custom handler); logs request paths. */
async function withServer(
  fn: (base: string, hits: string[]) => Promise<void>,
  handler: Handler = (path) => {
    const m = path.match(/^\/(.+)\/zip\/([0-9a-f]{40})$/);
    const id = m ? `${m[1]}@${m[2]}` : "";
    return TREES[id] ? new Response(archive(id)) : new Response("no such archive", { status: 404 });
  },
): Promise<void> {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    hits.push(path);
    return handler(path);
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, hits);
  } finally {
    await server.shutdown();
  }
}

const tempDirs: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const dir of tempDirs) Deno.removeSync(dir, { recursive: true });
});

/** A temp dir with the test manifest; returns fetch options (quiet, no progress). */
async function setup(): Promise<FetchOptions & { manifestPath: string; lines: string[] }> {
  const tmp = await Deno.makeTempDir({ prefix: "runlens-fetch-test-" });
  tempDirs.push(tmp);
  const manifestPath = join(tmp, "manifest.json");
  await writeFile(manifestPath, JSON.stringify(testManifest(), null, 2));
  const lines: string[] = [];
  return {
    dataDir: join(tmp, "data"),
    manifestPath,
    lines,
    log: (l) => lines.push(l),
    progress: false,
  };
}

/** All files under `dir`, relative, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

Deno.test("fetch-data: the benchmarks' committed manifests are well-formed", () => {
  const m = pinnedManifest();
  const sources = Object.values(m.sources);
  assert.deepEqual([...new Set(sources.map((s) => s.folder))], dataFolders());
  assert.deepEqual(dataFolders(), ["bbeh", "bbh", "big-bench-mistake", "gsm8k"]);
  // the pins README states, in fetch order
  assert.deepEqual(Object.keys(m.sources), [
    "google-deepmind/bbeh@80d12ca916b7158f22293fcf3144f4d3d854d4be",
    "google-deepmind/bbeh@49b3737f78afbbc334ffacbf457ecdacf47fdeef",
    "suzgunmirac/BIG-Bench-Hard@9ee07bd481feebf959a6b59d61ea57bdcf30964d",
    "WHGTyen/BIG-Bench-Mistake@270683a4ecce6f3b22c4ab28a204ab8fa09f2517",
    "openai/grade-school-math@3101c7d5072418e28b9008a6636bde82a006892c",
  ]);
  for (const b of benchmarks().filter((b) => b.data)) {
    // a benchmark's manifest lies in its folder and lists only its own folder's sources
    assert.ok(b.data!.manifest.endsWith(`/lib/benchmarks/${b.name}/manifest.json`), b.name);
    const own = Object.values(benchmarkManifest(b)!.sources).map((s) => s.folder);
    assert.deepEqual([...new Set(own)], [b.data!.folder]);
  }
  for (const s of sources) {
    assert.equal(s.archive, `https://codeload.github.com/${s.repo}/zip/${s.commit}`);
    assert.equal(s.archiveAlt, `https://github.com/${s.repo}/archive/${s.commit}.zip`);
    assert.match(s.commit, /^[0-9a-f]{40}$/);
  }
  const paths = m.files.map((f) => f.path);
  assert.deepEqual(paths, [...paths].sort(), "files sorted by path");
  for (const id of Object.keys(m.sources)) {
    assert.ok(m.files.some((f) => f.source === id), `${id} has files`);
  }
  assert.ok(!paths.some((p) => p.startsWith("logs/")), "logs/ is not fetched");
});

Deno.test("fetch-data: downloads, lays out and verifies; a second run is a no-op", async () => {
  const opts = await setup();
  await withServer(async (baseUrl, hits) => {
    const first = await fetchData({ ...opts, baseUrl });
    assert.deepEqual(first.sources.map((s) => s.status), ["fetched", "fetched", "fetched"]);
    assert.equal(first.verified, 5);
    assert.equal(hits.length, 3);
    assert.deepEqual(await listFiles(opts.dataDir), Object.keys(LAYOUT).sort());
    for (const [path, [source, repoPath]] of Object.entries(LAYOUT)) {
      assert.equal(await readFile(join(opts.dataDir, path), "utf8"), TREES[source][repoPath]);
    }
    const mtimes = await Promise.all(
      Object.keys(LAYOUT).map(async (p) => (await stat(join(opts.dataDir, p))).mtimeMs),
    );

    const second = await fetchData({ ...opts, baseUrl });
    assert.deepEqual(second.sources.map((s) => s.status), ["skipped", "skipped", "skipped"]);
    assert.equal(second.verified, 5);
    assert.equal(hits.length, 3, "no request on the second run");
    const after = await Promise.all(
      Object.keys(LAYOUT).map(async (p) => (await stat(join(opts.dataDir, p))).mtimeMs),
    );
    assert.deepEqual(after, mtimes, "no file rewritten");
    assert.ok(opts.lines.some((l) => l.includes("already present and verified, skipped")));
  });
});

Deno.test("fetch-data: a locally damaged file makes only its source be fetched again", async () => {
  const opts = await setup();
  await withServer(async (baseUrl, hits) => {
    await fetchData({ ...opts, baseUrl });
    await writeFile(join(opts.dataDir, "other/notes/a.txt"), "edited\n");
    const again = await fetchData({ ...opts, baseUrl });
    assert.deepEqual(again.sources.map((s) => s.status), ["skipped", "skipped", "fetched"]);
    assert.equal(hits.length, 4);
    assert.deepEqual(await verifyFiles(opts.dataDir, testManifest().files), []);
  });
});

Deno.test("fetch-data: the CLI honours --only, --manifest and --base-url", async () => {
  const opts = await setup();
  await withServer(async (baseUrl, hits) => {
    const args = ["--data", opts.dataDir, "--manifest", opts.manifestPath, "--base-url", baseUrl];
    const log = console.log;
    console.log = () => {};
    try {
      assert.equal(await fetchDataMain([...args, "--only", "other"]), 0);
    } finally {
      console.log = log;
    }
    assert.deepEqual(hits, [`/acme/other/zip/${OTHER}`]);
    assert.deepEqual(await listFiles(opts.dataDir), ["other/notes/a.txt"]);
    const error = console.error;
    const errors: string[] = [];
    console.error = (...a: unknown[]) => errors.push(a.join(" "));
    try {
      assert.equal(await fetchDataMain([...args, "--only", "logs"]), 2);
      assert.equal(await fetchDataMain([...args, "--only", "nope"]), 2);
    } finally {
      console.error = error;
    }
    assert.match(errors[0], /logs\/ .* is not fetched/);
    // the usage error names the folder, then the usage line follows
    assert.ok(errors.some((e) => /unknown folder "nope"/.test(e)), errors.join("\n"));
  });
});

Deno.test("fetch-data: a tampered archive fails verification, naming the file", async () => {
  const opts = await setup();
  const bad = (p: string, t: string) => p === "data/tasks.json" ? t.replace("2", "3") : t;
  await withServer(async (baseUrl) => {
    await assert.rejects(
      fetchData({ ...opts, baseUrl, only: ["demo"] }),
      (e) => {
        assert.ok(e instanceof FetchDataError);
        assert.match(e.message, /demo\/data\/tasks\.json \(SHA-256 [0-9a-f]{12}…, expected/);
        assert.match(e.message, /1 of 3 files fail verification/);
        assert.match(e.message, /Nothing from this archive was written/);
        return true;
      },
    );
    // Nothing of the failing archive was written.
    await assert.rejects(stat(join(opts.dataDir, "demo/README.md")));
  }, (path) => {
    const id = `acme/demo-repo@${path.slice(-40)}`;
    return new Response(archive(id, bad));
  });
});

Deno.test("fetch-data: an archive lacking a listed file fails, naming it", async () => {
  const opts = await setup();
  await withServer(async (baseUrl) => {
    await assert.rejects(fetchData({ ...opts, baseUrl, only: ["other"] }), (e) => {
      assert.ok(e instanceof FetchDataError);
      assert.match(e.message, /other\/notes\/a\.txt \(notes\/a\.txt not in the archive\)/);
      return true;
    });
  }, () => new Response(new Uint8Array(zipSync({ [`other-${OTHER}/README.md`]: strToU8("x") }))));
});

Deno.test("fetch-data: a 404 from the server fails cleanly", async () => {
  const opts = await setup();
  await withServer(async (baseUrl, hits) => {
    await assert.rejects(fetchData({ ...opts, baseUrl }), (e) => {
      assert.ok(e instanceof FetchDataError);
      assert.equal(e.exitCode, 1);
      assert.match(e.message, /HTTP 404/);
      assert.ok(e.message.includes(`${baseUrl}/acme/demo-repo/zip/${NEW}`), e.message);
      assert.ok(!e.message.includes("\n"), "one paragraph");
      return true;
    });
    assert.equal(hits.length, 1, "stops at the first failing source");
    await assert.rejects(stat(opts.dataDir), "nothing written");
  }, () => new Response("Not Found", { status: 404 }));
});

Deno.test("fetch-data: a response that is not a zip fails cleanly", async () => {
  const opts = await setup();
  await withServer(async (baseUrl) => {
    await assert.rejects(
      fetchData({ ...opts, baseUrl }),
      (e) => e instanceof FetchDataError && /did not return a valid zip archive/.test(e.message),
    );
  }, () => new Response("<html>rate limited</html>", { headers: { "content-type": "text/html" } }));
});

Deno.test("fetch-data: an unreachable URL fails with the offline message", async () => {
  const opts = await setup();
  // A port that was free a moment ago: nothing listens there now.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const baseUrl = `http://127.0.0.1:${port}`;
  await assert.rejects(fetchData({ ...opts, baseUrl }), (e) => {
    assert.ok(e instanceof FetchDataError);
    assert.ok(e.message.includes(`${baseUrl}/acme/demo-repo/zip/${NEW}`), e.message);
    assert.match(e.message, /seems to be offline or unable to reach 127\.0\.0\.1:\d+/);
    assert.match(e.message, /--data DIR or \$RUNLENS_DATA/);
    assert.ok(!e.message.includes("\n"), "one paragraph");
    return true;
  });
  // Through the CLI: exit code 1, one line on stderr, no stack trace.
  const error = console.error;
  const errors: string[] = [];
  console.error = (...a: unknown[]) => errors.push(a.join(" "));
  try {
    const code = await fetchDataMain([
      "--data",
      opts.dataDir,
      "--manifest",
      opts.manifestPath,
      "--base-url",
      baseUrl,
    ]);
    assert.equal(code, 1);
  } finally {
    console.error = error;
  }
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^runlens fetch-data: could not download demo\/ /);
  assert.ok(!/\n\s+at /.test(errors[0]), "no stack trace");
});

dataTest(
  "fetch-data: each benchmark's committed manifest is what its data produces",
  async (dir) => {
    const found = new Set<string>();
    for (const b of benchmarks().filter((b) => b.data)) {
      const committed = Deno.readTextFileSync(new URL(b.data!.manifest));
      const built = await buildManifest(dir, b.data!);
      const why = `lib/cli/make_manifest.ts regenerates ${b.name}'s manifest`;
      assert.equal(formatManifest(built), committed, why);
      for (const f of built.files) found.add(f.path);
    }
    // merged, they list every file of the data folders and nothing else
    const manifest = pinnedManifest();
    const listed = new Set(manifest.files.map((f) => f.path));
    assert.deepEqual([...found].filter((p) => !listed.has(p)), [], "files missing from manifest");
    assert.deepEqual([...listed].filter((p) => !found.has(p)), [], "listed files not in data dir");
    assert.deepEqual(await verifyFiles(dir, manifest.files), [], "hashes and sizes");
    const count = (folder: string) =>
      manifest.files.filter((f) => f.path.startsWith(folder)).length;
    assert.deepEqual([count("bbeh/"), count("bbh/"), count("big-bench-mistake/")], [51, 165, 7]);
  },
);

dataTest(
  "fetch-data: the real manifest round-trips through archives built from the data",
  async (dir) => {
    // Rebuild each pinned archive from the data directory (repo paths under `<repo>-<commit>/`,
    // plus a file the manifest does not list), serve them, and fetch with the committed manifest.
    const manifest = pinnedManifest();
    const zips = new Map<string, Uint8Array<ArrayBuffer>>();
    for (const [id, s] of Object.entries(manifest.sources)) {
      const top = `${s.repo.split("/")[1]}-${s.commit}`;
      const entries: Record<string, Uint8Array> = { [`${top}/unlisted.py`]: strToU8("pass\n") };
      for (const f of manifest.files.filter((f) => f.source === id)) {
        entries[`${top}/${f.repoPath}`] = new Uint8Array(await readFile(join(dir, f.path)));
      }
      zips.set(`/${s.repo}/zip/${s.commit}`, new Uint8Array(zipSync(entries, { level: 0 })));
    }
    const target = await Deno.makeTempDir({ prefix: "runlens-fetch-test-" });
    tempDirs.push(target);
    await withServer(async (baseUrl, hits) => {
      const report = await fetchData({
        dataDir: target,
        manifest,
        baseUrl,
        log: () => {},
        progress: false,
      });
      assert.equal(report.verified, manifest.files.length);
      assert.equal(hits.length, Object.keys(manifest.sources).length);
      assert.deepEqual(await listFiles(target), manifest.files.map((f) => f.path).sort());
    }, (path) => zips.has(path) ? new Response(zips.get(path)) : new Response("", { status: 404 }));
  },
);
