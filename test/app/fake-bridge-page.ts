import type { SimRig } from "../../src/sim/rig.js";
import type { PageClient } from "../bridge/helpers.js";

/** The bridge page stand-in: pairs, mirrors the bridge's display onto the world's phone, reports touches. */
export class FakeBridgePage {
  private running = true;
  private loops: Promise<void>[] = [];
  patternsShown = 0;
  touchesSent = 0;

  constructor(
    private readonly page: PageClient,
    private readonly world: SimRig,
  ) {}

  async open(code: string): Promise<void> {
    const reply = await this.page.pair(code);
    if (reply.status !== 200) throw new Error(`pairing failed: ${reply.text}`);
    await this.page.hello(this.world.phone.geometry.screenPt);
    this.loops = [this.mirrorDisplay(), this.reportTouches()];
  }

  /** Stops both loops and waits for them (before the world they drive stops). */
  async close(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async mirrorDisplay(): Promise<void> {
    let version = 0;
    let shownId = -1;
    while (this.running) {
      const view = await this.page.poll(version, 1000).catch(() => null);
      if (view?.status !== 200) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      version = Number(view.body.version);
      const display = view.body.display as { id: number; svg: string | null } | null;
      if (!display || display.id === shownId) continue;
      shownId = display.id;
      this.world.phone.showPattern(display.svg);
      if (display.svg) this.patternsShown++;
      await this.page.post("/api/ack", { kind: "display", id: display.id }).catch(() => null);
    }
  }

  /** Forwards each touch-down once it happened, in the page's own clock (performance.now()). */
  private async reportTouches(): Promise<void> {
    let since = this.world.gantry.now();
    while (this.running) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      const now = this.world.gantry.now();
      const due = this.world.phone.touchReports(since).filter((t) => t.tMs <= now);
      if (due.length === 0) continue;
      since = (due.at(-1)?.tMs ?? now) + 0.001;
      const pageNow = performance.now();
      const touches = due.map((t) => ({ x: t.x, y: t.y, tMs: Math.max(0, pageNow - (now - t.tMs)) }));
      await this.page
        .post("/api/touches", { sentAtMs: pageNow, fullScreen: true, touches })
        .catch(() => null);
      this.touchesSent += touches.length;
    }
  }
}
