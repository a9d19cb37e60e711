/**
 * The columnar cache (`lib/pipeline/cache.ts`, `cache_key.ts`) and `runlens cache`: round trips
 * of awkward frames, the hive data set as polars reads it, invalidation of changed files,
 * broken entries, concurrent writers, eviction, info and clear.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import {
  cacheDir,
  cacheInfo,
  clearCache,
  type FileFingerprint,
  fileFingerprint,
  loadKey,
  readCache,
  staleReason,
  writeCache,
} from "@runlens/pipeline/cache.ts";
import { CACHE_VERSION, FINGERPRINT_BYTES, sha256 } from "@runlens/pipeline/cache_key.ts";
import { compactColumns } from "@runlens/pipeline/compact_frame.ts";
import type { LoadQuarantine } from "@runlens/pipeline/merge.ts";
import { runCli, runDeno } from "./_cli.ts";
import { AWKWARD_RUNS, awkwardFrame, BIG_OFFSET } from "./_cache_writer.ts";
import { withTempDir } from "./_tmp.ts";
import { dataTest } from "./_data.ts";

const QUARANTINE: LoadQuarantine[] = [
  { file: "logs/a.jsonl", line: 3, reason: "missing task", run: "a/b", benchmark: null },
  { file: "logs/ü b.jsonl", line: 7, reason: 'task "x\ny" ✗', run: "", benchmark: "bbh" },
];
const META = {
  files: [{ path: "logs/a.jsonl", format: "jsonl", rowsIn: 3 }],
  models: { r: ["m"] },
};

/** Write `frame` as a fresh entry of `dir` (key from `settings`), asserting it was written. */
function put(dir: string, frame: pl.DataFrame, settings: Record<string, unknown> = {}) {
  const fingerprints: FileFingerprint[] = [];
  const key = loadKey(fingerprints, settings);
  const out = writeCache(dir, key, {
    frame,
    quarantine: QUARANTINE,
    meta: META,
    fingerprints,
    settings,
  });
  assert.equal(out.reason, null);
  return key;
}

/** Column names and types, in order. */
const schemaOf = (df: pl.DataFrame) => df.getColumns().map((c) => `${c.name}: ${c.dtype}`);

for (const interleaved of [true, false]) {
  const order = interleaved ? "runs interleaved" : "one block per run";
  Deno.test(`round trip: awkward runs, nulls, big offsets (${order})`, () =>
    withTempDir((dir) => {
      const frame = awkwardFrame(5_000, interleaved);
      const key = put(dir, frame);
      const got = readCache(dir, key);
      assert.equal(got.reason, null);
      const back = got.load!.frame;
      assert.deepEqual(schemaOf(back), schemaOf(frame));
      assert.ok(back.frameEqual(frame, true));
      // frameEqual aside, the values that are easy to lose: every run, nulls, offsets > 2^31
      assert.deepEqual(back.getColumn("run").toArray(), frame.getColumn("run").toArray());
      assert.deepEqual(new Set(back.getColumn("run").toArray()), new Set(AWKWARD_RUNS));
      assert.equal(back.getColumn("ptr_offset").get(1), BIG_OFFSET + 1000);
      assert.equal(
        back.getColumn("extracted").nullCount(),
        frame.getColumn("extracted").nullCount(),
      );
      assert.deepEqual(got.load!.quarantine, QUARANTINE);
      assert.deepEqual(got.load!.meta, META);
    }));
}

Deno.test("round trip: an empty frame keeps its columns and types", () =>
  withTempDir((dir) => {
    const frame = awkwardFrame(10).head(0);
    const got = readCache(dir, put(dir, frame)).load!;
    assert.equal(got.frame.height, 0);
    assert.deepEqual(schemaOf(got.frame), schemaOf(frame));
  }));

Deno.test("columns of one value in every row: read back from the manifest, still in the parts", () =>
  withTempDir((dir) => {
    const frame = awkwardFrame(3_000, false).withColumns(
      pl.lit(null).cast(pl.Utf8).alias("data_version"),
      pl.lit("strict-match").alias("lm_eval_filter"),
    );
    const key = put(dir, frame);
    const got = readCache(dir, key).load!;
    assert.deepEqual(schemaOf(got.frame), schemaOf(frame));
    assert.ok(got.frame.frameEqual(frame, true));
    assert.deepEqual(
      got.frame.getColumn("lm_eval_filter").toArray(),
      Array(3_000).fill("strict-match"),
    );
    assert.equal(got.frame.getColumn("data_version").nullCount(), 3_000);
    // benchmark and run come from the partitions; the varying columns are not constants
    assert.deepEqual(got.manifest.constants, {
      scorer: "bbeh-official",
      lm_eval_filter: "strict-match",
      data_version: null,
      // rows of a benchmark tied by position, with no record fields
      example_id: null,
      subset: null,
      extra: null,
    });
    // other engines read the parts alone: the columns are there too
    const part = pl.readParquet(join(dir, key, got.manifest.partitions[0].path));
    assert.deepEqual(
      part.select("scorer", "lm_eval_filter", "data_version").row(0),
      ["bbeh-official", "strict-match", null],
    );
  }));

Deno.test("the hive data set: polars reads run and benchmark back from the folder names", () =>
  withTempDir((dir) => {
    const frame = awkwardFrame(2_000);
    put(dir, frame);
    // the documented query (docs/cache.md), with the original order from `row`
    const hive = pl.scanParquet(join(dir, "*", "benchmark=*", "run=*", "*.parquet"), {
      hivePartitioning: true,
      hiveSchema: { benchmark: pl.Utf8, run: pl.Utf8 } as unknown,
    }).sort("row").collectSync();
    assert.deepEqual(hive.getColumn("row").toArray(), [...Array(2_000).keys()]);
    // Every reader takes this one name for null (the Hive marker); runlens reads the manifest.
    const runs = frame.getColumn("run").toArray()
      .map((r) => (r === "__HIVE_DEFAULT_PARTITION__" ? null : r));
    assert.deepEqual(hive.getColumn("run").toArray(), runs);
    for (const name of ["benchmark", "task", "ptr_offset", "correct"]) {
      assert.deepEqual(hive.getColumn(name).toArray(), frame.getColumn(name).toArray(), name);
    }
  }));

Deno.test("a run name too long for a folder: no entry, the reason, nothing left behind", () =>
  withTempDir((dir) => {
    const frame = pl.DataFrame({ benchmark: ["bbeh"], run: ["r".repeat(300)] });
    const key = loadKey([], {});
    const out = writeCache(dir, key, {
      frame,
      quarantine: [],
      meta: null,
      fingerprints: [],
      settings: {},
    });
    assert.equal(out.path, null);
    assert.match(out.reason!, /too long/);
    assert.deepEqual(cacheInfo(dir).entries, []);
    assert.equal(cacheInfo(dir).leftovers, 0);
  }));

Deno.test("writeCache refuses frames it cannot partition, and non-JSON meta", () =>
  withTempDir((dir) => {
    const key = loadKey([], {});
    const load = (frame: pl.DataFrame, meta: unknown = null) => () =>
      writeCache(dir, key, { frame, quarantine: [], meta, fingerprints: [], settings: {} });
    assert.throws(load(pl.DataFrame({ benchmark: ["b"] })), /no column `run`/);
    assert.throws(load(pl.DataFrame({ benchmark: ["b"], run: [1] })), /not Utf8/);
    assert.throws(load(pl.DataFrame({ benchmark: ["b", null], run: ["r", "r"] })), /nulls/);
    const ok = pl.DataFrame({ benchmark: ["b"], run: ["r"] });
    assert.throws(load(ok, { models: new Map() }), /meta\.models/);
    assert.throws(() =>
      writeCache(dir, "../x", {
        frame: ok,
        quarantine: [],
        meta: null,
        fingerprints: [],
        settings: {},
      })
    );
  }));

// ---------------------------------------------------------------------------------------------
// Invalidation: what changes the key

/** A file of `size` bytes whose byte i is (i * 7 + seed) mod 251, as text-free bytes. */
function bytesOf(size: number, seed = 0): Uint8Array {
  return Uint8Array.from({ length: size }, (_, i) => (i * 7 + seed) % 251);
}

Deno.test("fingerprints: append, truncate, head or tail rewritten, touch → another key", () =>
  withTempDir((dir) => {
    const path = join(dir, "a.jsonl");
    const size = 3 * FINGERPRINT_BYTES;
    const write = (bytes: Uint8Array, mtime = 1_700_000_000) => {
      Deno.writeFileSync(path, bytes);
      Deno.utimeSync(path, mtime, mtime);
    };
    const key = () => loadKey([fileFingerprint(path)], { scorer: "bbeh-official" });
    const base = bytesOf(size);
    write(base);
    const original = key();
    assert.equal(key(), original, "unchanged file: same key");
    const variants: [string, () => void, string][] = [
      ["append", () => write(Uint8Array.from([...base, 10])), `size ${size} → ${size + 1}`],
      ["truncate", () => write(base.slice(0, size - 1)), `size ${size} → ${size - 1}`],
      [
        "head",
        () => write(Uint8Array.from(base, (b, i) => (i === 5 ? b ^ 1 : b))),
        "content (head)",
      ],
      [
        "tail",
        () => write(Uint8Array.from(base, (b, i) => (i === size - 5 ? b ^ 1 : b))),
        "content (tail)",
      ],
      [
        "touch",
        () => write(base, 1_700_000_001),
        "mtime 2023-11-14T22:13:20.000Z → 2023-11-14T22:13:21.000Z",
      ],
    ];
    const before = { files: [fileFingerprint(path)], settings: { scorer: "bbeh-official" } };
    const keys = new Set([original]);
    for (const [name, change, why] of variants) {
      change();
      assert.ok(!keys.has(key()), `${name}: a new key`);
      keys.add(key());
      const fresh = fileFingerprint(path);
      const frame = pl.DataFrame({ benchmark: ["bbeh"], run: ["a"] });
      withTempDir((cache) => {
        const k = loadKey(before.files, before.settings);
        writeCache(cache, k, {
          frame,
          quarantine: [],
          meta: null,
          fingerprints: before.files,
          settings: before.settings,
        });
        assert.equal(staleReason(cache, [fresh], before.settings), `${path} changed: ${why}`);
      });
      write(base);
      assert.equal(key(), original, `${name} undone: the old key again`);
    }
    // The documented blind spot: the middle of a long file, same size, same mtime.
    write(Uint8Array.from(base, (b, i) => (i === size / 2 ? b ^ 1 : b)));
    assert.equal(key(), original);
  }));

Deno.test("fingerprints: short files hash whole; settings and file order are in the key", () =>
  withTempDir((dir) => {
    Deno.writeTextFileSync(join(dir, "a.jsonl"), "{}\n");
    Deno.writeTextFileSync(join(dir, "b.jsonl"), "{}\n");
    const a = fileFingerprint(join(dir, "a.jsonl"));
    const b = fileFingerprint(join(dir, "b.jsonl"));
    assert.equal(a.head, a.tail);
    assert.equal(a.head, b.head);
    assert.notEqual(loadKey([a, b], {}), loadKey([b, a], {}));
    assert.notEqual(
      loadKey([a], { scorer: { bbeh: "x" } }),
      loadKey([a], { scorer: { bbeh: "y" } }),
    );
    assert.equal(loadKey([a], { x: 1, y: 2 }), loadKey([a], { y: 2, x: 1 }));
  }));

Deno.test("fingerprints: FIFOs, devices and folders are refused without being opened", async () => {
  assert.throws(() => fileFingerprint("/dev/null"), /not a regular file/);
  await withTempDir(async (dir) => {
    assert.throws(() => fileFingerprint(dir), /not a regular file/);
    const fifo = join(dir, "pipe.jsonl");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output().catch(() => null);
    if (made?.success) assert.throws(() => fileFingerprint(fifo), /not a regular file/); // no hang
    assert.throws(() => fileFingerprint(join(dir, "missing.jsonl")));
  });
});

Deno.test("staleReason: new and gone files, changed settings, no earlier entry", () =>
  withTempDir((dir) => {
    const f = (path: string, size = 10): FileFingerprint => ({
      path,
      size,
      mtimeMs: 0,
      head: "h",
      tail: "t",
    });
    const frame = pl.DataFrame({ benchmark: ["bbeh"], run: ["a"] });
    const files = [f("a.jsonl"), f("b.jsonl")];
    const settings = { scorer: "bbeh-official", limits: { maxBytes: 10 } };
    writeCache(dir, loadKey(files, settings), {
      frame,
      quarantine: [],
      meta: null,
      fingerprints: files,
      settings,
    });
    assert.equal(
      staleReason(dir, [f("a.jsonl"), f("c.jsonl")], settings),
      "c.jsonl is new; b.jsonl is gone",
    );
    assert.equal(
      staleReason(dir, files, { ...settings, limits: { maxBytes: 11 }, lmEvalFilter: "x" }),
      "settings changed: limits, lmEvalFilter",
    );
    assert.equal(staleReason(dir, [f("z.jsonl")], settings), null);
    const many = [f("a.jsonl", 1), f("b.jsonl", 2), f("c.jsonl"), f("d.jsonl")];
    assert.equal(
      staleReason(dir, many, settings),
      "a.jsonl changed: size 10 → 1; b.jsonl changed: size 10 → 2; c.jsonl is new (+1 more)",
    );
  }));

// ---------------------------------------------------------------------------------------------
// Broken entries: a miss with a reason, never a throw; the entry is then replaced

/** Write an entry, break it with `damage(entryDir)`, and return what readCache says. */
function broken(
  damage: (entry: string) => void,
): { reason: string; missing: boolean; rewritten: boolean } {
  return withTempDir((dir) => {
    const frame = awkwardFrame(500);
    const key = put(dir, frame);
    damage(join(dir, key));
    const got = readCache(dir, key);
    assert.equal(got.load, null);
    // the load re-reads and writes again: the broken entry must not block that write
    const again = writeCache(dir, key, {
      frame,
      quarantine: [],
      meta: null,
      fingerprints: [],
      settings: {},
    });
    const rewritten = again.won && readCache(dir, key).load?.frame.frameEqual(frame, true) === true;
    return { reason: got.reason!, missing: got.missing, rewritten };
  });
}

const firstPart = (entry: string) => {
  const m = JSON.parse(Deno.readTextFileSync(join(entry, "manifest.json")));
  return join(entry, m.partitions[0].path);
};
/** Edit an entry's manifest; `reseal`: with a new digest, as if runlens had written it. */
const editManifest = (
  entry: string,
  edit: (m: Record<string, unknown>) => void,
  reseal = false,
) => {
  const m = JSON.parse(Deno.readTextFileSync(join(entry, "manifest.json")));
  edit(m);
  if (reseal) {
    delete m.digest;
    m.digest = sha256(JSON.stringify(m));
  }
  Deno.writeTextFileSync(join(entry, "manifest.json"), JSON.stringify(m));
};
const DIGEST = /does not match its digest/;
/** One row moved from the second partition's count to the first's (the total stays). */
const moveRow = (m: Record<string, unknown>) => {
  const parts = m.partitions as { rows: number }[];
  parts[0].rows++;
  parts[1].rows--;
};

Deno.test("broken entries are misses with the reason, and are replaced by the next write", () => {
  const cases: [string, (entry: string) => void, RegExp][] = [
    ["truncated part", (e) => Deno.truncateSync(firstPart(e), 100), /bytes, the manifest says/],
    [
      "part damaged, same size",
      (e) => {
        const bytes = Deno.readFileSync(firstPart(e));
        bytes.fill(0, bytes.length - 40, bytes.length - 4);
        Deno.writeFileSync(firstPart(e), bytes);
      },
      /parquet|out of spec/i,
    ],
    ["part missing", (e) => Deno.removeSync(firstPart(e)), /No such file|not found/i],
    [
      "row count edited",
      (e) => editManifest(e, (m) => (m.rows = (m.rows as number) + 1)),
      /partitions hold 500 rows/,
    ],
    ["partition rows edited", (e) => editManifest(e, moveRow), DIGEST],
    [
      "partition rows edited, manifest resealed: the parts' own counts disagree",
      (e) => editManifest(e, moveRow, true),
      /rows, the manifest says/,
    ],
    ["version edited", (e) => editManifest(e, (m) => (m.cache_version = 0)), /cache version 0/],
    [
      "constant column not a column (manifest resealed)",
      (e) => editManifest(e, (m) => (m.constants = { scorer: "bbeh-official", nope: "x" }), true),
      /constant columns are not columns of schema\.parquet/,
    ],
    [
      "constant column's value not text",
      (e) => editManifest(e, (m) => (m.constants = { scorer: 7 })),
      /constant columns are bad/,
    ],
    [
      "constant columns missing",
      (e) => editManifest(e, (m) => delete m.constants),
      /constant columns are bad/,
    ],
    [
      "constant value edited: the parts hold another",
      (e) => editManifest(e, (m) => ((m.constants as Record<string, string>).scorer = "lenient")),
      DIGEST,
    ],
    [
      "a varying column listed as constant",
      (e) => editManifest(e, (m) => ((m.constants as Record<string, string>).task = "nycc")),
      DIGEST,
    ],
    [
      "a constant column dropped from a part",
      (e) => {
        const file = firstPart(e);
        pl.readParquet(file).drop("scorer").writeParquet(file, { compression: "zstd" });
        editManifest(e, (m) => {
          (m.partitions as { bytes: number }[])[0].bytes = Deno.statSync(file).size;
        });
      },
      DIGEST,
    ],
    [
      "manifest not JSON",
      (e) => Deno.writeTextFileSync(join(e, "manifest.json"), '{"cache_ver'),
      /JSON/,
    ],
    [
      "quarantine cut",
      (e) => Deno.truncateSync(join(e, "quarantine.jsonl"), 10),
      /quarantine\.jsonl/,
    ],
    [
      "schema missing",
      (e) => Deno.removeSync(join(e, "schema.parquet")),
      /No such file|not found/i,
    ],
  ];
  for (const [name, damage, why] of cases) {
    const got = broken(damage);
    assert.match(got.reason, why, name);
    assert.equal(got.missing, false, name);
    assert.ok(got.rewritten, `${name}: rewritten`);
  }
  const gone = broken((e) => Deno.removeSync(join(e, "manifest.json")));
  assert.deepEqual(gone, { reason: "no entry", missing: true, rewritten: true });
});

// ---------------------------------------------------------------------------------------------
// Concurrency, eviction, info and clear

Deno.test("two processes writing one key: both succeed, one entry, nothing left over", async () => {
  await withTempDir(async (dir) => {
    for (let round = 0; round < 3; round++) {
      const cache = join(dir, `cache${round}`);
      const go = join(dir, `go${round}`);
      const key = loadKey([], { round });
      const writer = () => runDeno(["tests/_cache_writer.ts", cache, key, go]);
      const both = Promise.all([writer(), writer()]);
      const ready = () =>
        [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith(`go${round}.ready.`)).length;
      const deadline = Date.now() + 60_000; // a writer that died never gets ready
      while (ready() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      Deno.writeTextFileSync(go, ""); // both wait with polars loaded and the frame built: go
      const outs = await both;
      const results = outs.map((o) => {
        assert.equal(o.code, 0, o.stderr);
        return JSON.parse(o.stdout);
      });
      assert.deepEqual(results.map((r) => r.path), [join(cache, key), join(cache, key)]);
      assert.deepEqual(results.map((r) => r.won).sort(), [false, true]);
      const got = readCache(cache, key).load!;
      assert.ok(got.frame.frameEqual(awkwardFrame(20_000), true));
      const info = cacheInfo(cache);
      assert.deepEqual([info.entries.length, info.leftovers], [1, 0]);
    }
  });
});

Deno.test("eviction: newer files replace the old entry, entries of other settings stay", () =>
  withTempDir((dir) => {
    const cache = join(dir, "cache");
    const path = join(dir, "a.jsonl");
    const frame = pl.DataFrame({ benchmark: ["bbeh"], run: ["a"] });
    const write = (settings: Record<string, unknown>) => {
      const fingerprints = [fileFingerprint(path)];
      const key = loadKey(fingerprints, settings);
      writeCache(cache, key, { frame, quarantine: [], meta: null, fingerprints, settings });
      return key;
    };
    Deno.writeTextFileSync(path, "{}\n");
    const old = write({ scorer: "a" });
    Deno.writeTextFileSync(path, "{}\n{}\n");
    const other = write({ scorer: "b" });
    assert.equal(readCache(cache, old).load, null); // evicted: its file changed
    const third = write({ scorer: "c" });
    assert.deepEqual(cacheInfo(cache).entries.map((e) => e.key).sort(), [other, third].sort());
  }));

Deno.test("info and clear: entries newest first, leftovers, bytes; unrelated files stay", () =>
  withTempDir((dir) => {
    assert.deepEqual(cacheInfo(join(dir, "none")), {
      dir: join(dir, "none"),
      entries: [],
      leftovers: 0,
      bytes: 0,
    });
    assert.deepEqual(clearCache(join(dir, "none")), { entries: 0, bytes: 0 });
    const frame = awkwardFrame(300);
    const first = put(dir, frame, { scorer: "a" });
    const second = put(dir, frame.head(100), { scorer: "b" });
    Deno.mkdirSync(join(dir, ".tmp", "crashed"), { recursive: true });
    Deno.writeTextFileSync(join(dir, ".tmp", "crashed", "x.parquet"), "12345");
    Deno.writeTextFileSync(join(dir, "README.txt"), "not the cache's");
    const info = cacheInfo(dir);
    assert.deepEqual(info.entries.map((e) => [e.key, e.rows, e.quarantined]), [
      [second, 100, 2],
      [first, 300, 2],
    ]);
    assert.deepEqual(info.entries[0].settings, { scorer: "b" });
    assert.equal(info.leftovers, 1);
    assert.equal(info.bytes, info.entries[0].bytes + info.entries[1].bytes + 5);
    assert.deepEqual(clearCache(dir), { entries: 2, bytes: info.bytes });
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["README.txt"]);
  }));

Deno.test("cacheDir: the option, else $RUNLENS_CACHE, else .runlens/cache, made absolute", () => {
  const saved = Deno.env.get("RUNLENS_CACHE");
  try {
    Deno.env.set("RUNLENS_CACHE", "/tmp/from-env");
    assert.equal(cacheDir("rel/dir"), join(Deno.cwd(), "rel/dir"));
    assert.equal(cacheDir(), "/tmp/from-env");
    Deno.env.delete("RUNLENS_CACHE");
    assert.equal(cacheDir(), join(Deno.cwd(), ".runlens", "cache"));
  } finally {
    if (saved === undefined) Deno.env.delete("RUNLENS_CACHE");
    else Deno.env.set("RUNLENS_CACHE", saved);
  }
});

// ---------------------------------------------------------------------------------------------
// `runlens cache` as a user runs it

Deno.test("runlens cache info/clear: text, --json, $RUNLENS_CACHE, usage errors", async () => {
  await withTempDir(async (dir) => {
    const frame = awkwardFrame(1_234);
    const key = put(dir, frame, { scorer: "bbeh-official" });
    const info = await runCli(["cache", "info", "--cache", dir, "--json"]);
    assert.equal(info.code, 0, info.stderr);
    const report = JSON.parse(info.stdout);
    assert.deepEqual(
      [report.command, report.action, report.dir, report.leftovers, report.runs, report.errors],
      ["cache", "info", dir, 0, [], []],
    );
    assert.deepEqual(
      report.entries.map((
        e: Record<string, unknown>,
      ) => [e.key, e.rows, e.quarantined, e.settings]),
      [[key, 1_234, 2, { scorer: "bbeh-official" }]],
    );
    const text = await runCli(["cache", "info"], { env: { RUNLENS_CACHE: dir } });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, new RegExp(`^cache ${dir}: 1 entry, `));
    assert.match(
      text.stdout,
      new RegExp(`\\n  ${key.slice(0, 12)}  .*  1,234 rows  2 quarantined`),
    );
    const clear = await runCli(["cache", "clear", "--cache", dir, "--json"]);
    assert.equal(clear.code, 0, clear.stderr);
    const cleared = JSON.parse(clear.stdout);
    assert.deepEqual([cleared.removed_entries, cleared.bytes], [1, report.bytes]);
    assert.deepEqual(cacheInfo(dir).entries, []);
    const again = await runCli(["cache", "clear", "--cache", dir]);
    assert.equal(again.stdout, `removed 0 entries (0.0 MB) from ${dir}\n`);
    for (
      const bad of [["cache"], ["cache", "list"], ["cache", "info", "extra"], [
        "cache",
        "info",
        "--cach",
        dir,
      ]]
    ) {
      const out = await runCli(bad);
      assert.equal(out.code, 2, bad.join(" "));
      assert.match(out.stderr, /usage: deno task runlens cache info\|clear/);
    }
  });
});

Deno.test("docs/cache.md: the Trino table declares every column of an entry with its type", () =>
  withTempDir((dir) => {
    const doc = Deno.readTextFileSync(join(REPO_ROOT, "docs", "cache.md"));
    const body = doc.match(/CREATE TABLE [^(]+\(([^;]*?)\)\nWITH/)![1];
    const declared = body.split(",").map((c) => c.trim().replaceAll('"', "").split(/\s+/));
    const frame = awkwardFrame(50);
    const key = put(dir, frame);
    const part = JSON.parse(Deno.readTextFileSync(join(dir, key, "manifest.json"))).partitions[0];
    const parquet = pl.readParquet(join(dir, key, part.path));
    const trino: Record<string, string> = {
      String: "varchar",
      Int32: "integer",
      Int64: "bigint",
      Float64: "double",
      Bool: "boolean",
    };
    const type = (s: pl.Series) => trino[String(s.dtype).replace(/^DataType\((.*)\)$/, "$1")];
    const actual = [
      ...parquet.getColumns().map((s) => [s.name, type(s)]),
      ["benchmark", "varchar"],
      ["run", "varchar"],
    ];
    assert.deepEqual(declared, actual);
  }));

dataTest(
  "a cache that cannot be written is a warning: a run name too long for a folder",
  async (data) => {
    await withTempDir(async (dir) => {
      const log = join(dir, "long.jsonl");
      const record = {
        task: "boolean_expressions",
        example_index: 0,
        response: "True",
        run: "m".repeat(300),
      };
      Deno.writeTextFileSync(log, JSON.stringify(record) + "\n");
      const cache = join(dir, "cache");
      const out = await runCli(["score", log, "--data", data, "--cache", cache, "--json"]);
      assert.equal(out.code, 0, out.stderr);
      const report = JSON.parse(out.stdout);
      assert.equal(report.runs[0].rows_scored, 1);
      assert.equal(report.warnings.length, 1, JSON.stringify(report.warnings));
      assert.match(
        report.warnings[0],
        /^cache not written: a folder name of \d+ bytes is too long/,
      );
      const text = await runCli(["score", log, "--data", data, "--cache", cache]);
      assert.match(text.stdout + text.stderr, /cache not written: a folder name/);
    });
  },
);

Deno.test("cache version 3: an entry of version 2's rows (no example_id, subset, extra) is a miss", () =>
  withTempDir((dir) => {
    assert.equal(CACHE_VERSION, 3);
    const required = compactColumns();
    assert.deepEqual(required.slice(-3), ["example_id", "subset", "extra"]);
    // what version 2 wrote: the compact columns without the three
    const old = awkwardFrame(40).drop("example_id", "subset", "extra");
    const key = put(dir, old);
    const read = readCache(dir, key, required);
    assert.equal(read.load, null);
    assert.match(read.reason!, /the rows lack column\(s\) example_id, subset, extra/);
    // and a manifest that says version 2 is refused whatever its rows
    const key2 = put(dir, awkwardFrame(40), { entry: 2 });
    editManifest(join(dir, key2), (m) => (m.cache_version = 2));
    assert.match(readCache(dir, key2, required).reason!, /cache version 2/);
  }));
