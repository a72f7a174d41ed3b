// Prints the character set the shipped font subsets cover: ASCII, Latin-1, common punctuation and
// symbols, CJK punctuation, full-width forms and all 6,763 GB2312 hanzi (levels 1 and 2).
const chars = new Set();
const addRange = (a, b) => {
  for (let c = a; c <= b; c++) chars.add(String.fromCodePoint(c));
};
addRange(0x20, 0x7e);
addRange(0xa0, 0xff);
addRange(0x2010, 0x2027); // dashes, quotes, bullets, ellipsis
addRange(0x2030, 0x203a);
addRange(0x2190, 0x2193); // arrows
addRange(0x2212, 0x2212);
addRange(0x3000, 0x301f); // CJK punctuation
addRange(0xff01, 0xff5e); // full-width forms
const gb = new TextDecoder("gb18030");
for (let hi = 0xb0; hi <= 0xf7; hi++) {
  for (let lo = 0xa1; lo <= 0xfe; lo++) {
    const s = gb.decode(new Uint8Array([hi, lo]));
    if (s.length === 1 && s !== "\ufffd" && /\p{Script=Han}/u.test(s)) chars.add(s);
  }
}
process.stdout.write([...chars].join(""));
