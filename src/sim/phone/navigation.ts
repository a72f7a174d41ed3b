import { appBack } from "./apps/registry.js";
import type { Nav } from "./context.js";
import type { PhoneState } from "./state.js";

/** What navigation needs to know about the passcode without ever holding it. */
export interface PasscodeCheck {
  passcodeLength: number;
  matches(code: string): boolean;
  now(): number;
}

/** Every screen transition of the phone, in one place (screens call these from their handlers). */
export function createNav(s: PhoneState, passcode: PasscodeCheck): Nav {
  const nav: Nav = {
    openApp: (id) => {
      s.foreground = id;
      s.switcher = false;
      s.recents = [id, ...s.recents.filter((a) => a !== id)];
    },
    // iOS: the home gesture on a later home page returns to the first page.
    goHome: () => {
      if (!s.foreground && !s.switcher) s.homePage = 0;
      s.foreground = null;
      s.switcher = false;
    },
    back: () => (s.foreground && !s.switcher ? appBack(s, s.foreground) : false),
    openThread: (threadId) => {
      nav.openApp("messages");
      const thread = s.threads.find((t) => t.id === threadId);
      if (thread) thread.unread = 0;
      const ui = s.ui.messages;
      s.ui.messages = {
        draft: "",
        listScroll: 0,
        ...ui,
        threadId,
        pasteMenu: false,
        threadScroll: 0,
        focused: false,
      };
      if (s.banner?.threadId === threadId) s.banner = null;
    },
    passcodeDigit: (digit) => {
      if (s.entered.length >= passcode.passcodeLength) return;
      s.entered += digit;
      if (s.entered.length < passcode.passcodeLength) return;
      if (passcode.matches(s.entered)) {
        // Unlock returns to whatever was open before locking (home on a fresh phone), as iOS does.
        s.locked = false;
        s.lockView = "lock";
        s.failedAttempts = 0;
        s.shakeStartMs = null;
        const pending = s.pendingThread;
        s.pendingThread = null;
        if (pending) nav.openThread(pending);
      } else {
        s.failedAttempts++;
        s.shakeStartMs = passcode.now();
      }
      s.entered = "";
    },
    passcodeDelete: () => {
      s.entered = s.entered.slice(0, -1);
    },
    passcodeCancel: () => {
      s.lockView = "lock";
      s.entered = "";
      s.pendingThread = null;
    },
    showPasscode: () => {
      s.lockView = "passcode";
      s.entered = "";
    },
    forceQuit: (id) => {
      s.recents = s.recents.filter((a) => a !== id);
      delete s.ui[id as keyof PhoneState["ui"]];
      if (s.foreground === id) s.foreground = null;
    },
  };
  return nav;
}
