/**
 * The few things a stylus cannot do, done on the phone itself: put text on its clipboard and take its
 * own screenshot. On a real phone both go through the phone-side bridge page; on the simulated rig
 * `SimPhoneIo` does what that page would do.
 */
export interface PhoneIo {
  /**
   * Put `text` on the phone's clipboard (the bridge page fetches it and copies it). Resolves once the
   * text is on the clipboard; rejects with a PiclawError when it cannot get there (bridge not paired,
   * page not open, timeout).
   */
  setClipboard(text: string): Promise<void>;
  /**
   * The phone's own screenshot: PNG or JPEG bytes of exactly the screen pixels. On iOS the capture is
   * triggered on the phone and the image arrives through the bridge; it may leave a thumbnail on screen.
   * Rejects with a PiclawError when no image arrives.
   */
  screenshot(): Promise<Buffer>;
}

/** The parts of the simulated rig `SimPhoneIo` uses (SimRig has them). */
export interface SimPhoneIoRig {
  readonly phone: { clipboard: string | null };
  screenshot(): Promise<Buffer>;
}

/** PhoneIo of the simulated rig: sets the simulated phone's clipboard as the bridge page would. */
export class SimPhoneIo implements PhoneIo {
  constructor(private readonly rig: SimPhoneIoRig) {}

  async setClipboard(text: string): Promise<void> {
    this.rig.phone.clipboard = text;
  }

  screenshot(): Promise<Buffer> {
    return this.rig.screenshot();
  }
}
