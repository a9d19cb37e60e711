/**
 * The per-task planners of the SYNTHETIC generator are keyed by real BBEH task names (a typo
 * would silently drop a task's planting), and a task without an entry gets the generic plan.
 *
 * @module
 */
import assert from "node:assert/strict";
import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
import { plannerFor, PLANNERS } from "@runlens/benchmarks/bbeh/synthetic/planners/mod.ts";

Deno.test("synthetic planners: keyed by BBEH task names; other tasks get the generic plan", () => {
  const names = new Set(BBEH_TASKS.map((t) => t.name));
  assert.deepEqual(Object.keys(PLANNERS).filter((k) => !names.has(k)), []);
  assert.equal(plannerFor("hyperbaton"), PLANNERS.hyperbaton);
  assert.deepEqual(plannerFor("nycc"), {});
  assert.deepEqual(plannerFor("constructor"), {});
});
