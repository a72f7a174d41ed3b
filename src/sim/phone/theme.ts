/** Colours of the system UI; Settings › Dark Mode switches between the two. */
export interface Theme {
  dark: boolean;
  bg: string;
  groupedBg: string;
  cell: string;
  fg: string;
  secondary: string;
  separator: string;
  tint: string;
  bar: string;
  fill: string;
  incomingBubble: string;
}

export const LIGHT: Theme = {
  dark: false,
  bg: "#ffffff",
  groupedBg: "#f2f2f7",
  cell: "#ffffff",
  fg: "#000000",
  secondary: "#8a8a8e",
  separator: "#c6c6c8",
  tint: "#007aff",
  bar: "#f9f9f9",
  fill: "#e5e5ea",
  incomingBubble: "#e9e9eb",
};

export const DARK: Theme = {
  dark: true,
  bg: "#000000",
  groupedBg: "#000000",
  cell: "#1c1c1e",
  fg: "#ffffff",
  secondary: "#8d8d93",
  separator: "#38383a",
  tint: "#0a84ff",
  bar: "#121212",
  fill: "#3a3a3c",
  incomingBubble: "#262629",
};

/** Gradients shared by all scenes (ids referenced with `url(#…)`). */
export const DEFS =
  '<linearGradient id="wall" x1="0" y1="0" x2="0.35" y2="1"><stop offset="0" stop-color="#1d2b64"/><stop offset="0.55" stop-color="#4b2a7a"/><stop offset="1" stop-color="#0f3b57"/></linearGradient>' +
  '<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#2f6fb5"/><stop offset="1" stop-color="#76a9dc"/></linearGradient>' +
  '<linearGradient id="wxicon" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3a8ee6"/><stop offset="1" stop-color="#7cc0f5"/></linearGradient>';
