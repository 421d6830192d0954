// Collected measurements: one value per repetition for each (metric, implementation),
// reported as medians and as ratios to the floor measured in the same repetition.
import { median } from "./stats.js";

export type ImplId = "floor" | "mcp-gen" | "sdk-v2" | "sdk-v1";
export const FLOOR: ImplId = "floor";

export interface MetricSpec {
  readonly key: string;
  readonly label: string;
  readonly unit: string;
  /** Turns the stored value into the displayed one (e.g. bytes → KB). */
  readonly scale?: number;
  readonly digits: number;
  /** Metric of the floor this one is divided by (default: the same key). */
  readonly base?: string;
}

export class Results {
  /** key → impl → value per repetition (NaN where a repetition has none). */
  private readonly values = new Map<string, Map<ImplId, number[]>>();
  /** key → impl → repetition index of each value, to pair it with the floor's. */
  private readonly reps = new Map<string, Map<ImplId, number[]>>();
  /** Failures by implementation: a measurement with errors is invalid. */
  readonly errors = new Map<ImplId, string[]>();

  record(key: string, impl: ImplId, rep: number, value: number): void {
    const byImpl = this.values.get(key) ?? new Map<ImplId, number[]>();
    this.values.set(key, byImpl);
    const repsByImpl = this.reps.get(key) ?? new Map<ImplId, number[]>();
    this.reps.set(key, repsByImpl);
    (byImpl.get(impl) ?? byImpl.set(impl, []).get(impl)!).push(value);
    (repsByImpl.get(impl) ?? repsByImpl.set(impl, []).get(impl)!).push(rep);
  }

  recordError(impl: ImplId, message: string): void {
    (this.errors.get(impl) ?? this.errors.set(impl, []).get(impl)!).push(message);
  }

  has(key: string, impl: ImplId): boolean {
    return (this.values.get(key)?.get(impl)?.length ?? 0) > 0;
  }

  median(key: string, impl: ImplId): number {
    return median(this.values.get(key)?.get(impl) ?? []);
  }

  /** Median over repetitions of value / the floor's `base` value of the same repetition. */
  ratio(spec: MetricSpec, impl: ImplId): number {
    const mine = this.values.get(spec.key)?.get(impl) ?? [];
    const myReps = this.reps.get(spec.key)?.get(impl) ?? [];
    const baseKey = spec.base ?? spec.key;
    const floor = this.values.get(baseKey)?.get(FLOOR) ?? [];
    const floorReps = this.reps.get(baseKey)?.get(FLOOR) ?? [];
    const ratios: number[] = [];
    mine.forEach((value, i) => {
      const j = floorReps.indexOf(myReps[i]!);
      if (j >= 0) ratios.push(value / floor[j]!);
    });
    // Measured once (bundle sizes): the plain ratio.
    if (ratios.length === 0 && mine.length > 0 && floor.length > 0) return median(mine) / median(floor);
    return median(ratios);
  }
}
