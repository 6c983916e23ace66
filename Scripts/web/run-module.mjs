// Runs the engine's WebAssembly module in Node, through its C ABI, for Scripts/web/test-wasm.sh:
//
//   node run-module.mjs MODULE CONFIG OUT [--file PATH]... [--unifont HEX] JOB...
//
// Each --file PATH is given to the module first (crownpager_add_file, under its last component),
// as the page's Add files… gives it, for the pictures and fonts CONFIG names.
// With --unifont, the GNU Unifont .hex file HEX is handed over as the page hands unifont.js's
// (crownpager_unifont_begin, _add in parts of 64 KiB, _end) once CONFIG runs, as a font that
// comes after the first frame; the glass 1 s later, on CONFIG's own panel, goes to OUT/late.pbm.
// JOB is `PANEL|SCRIPT`: the configuration in CONFIG on that panel, the crown script SCRIPT run as
// `crownpager render --frozen --out OUT/N` writes it (N the job's number from 0), each frame to
// OUT/N/<name>.pbm; then the same steps turned live (crownpager_turn, crownpager_press and
// crownpager_advance, as the page turns the crown) and the glass at the end written to
// OUT/N/live.pbm, and the frames as an animated GIF (crownpager_gif) to OUT/N.gif. Prints the figures it measured.
import { readFileSync, mkdirSync, writeFileSync } from "node:fs";

const [modulePath, configPath, out, ...rest] = process.argv.slice(2);
const files = [];
let unifontPath = null;
while (rest[0] === "--file" || rest[0] === "--unifont") {
  const [option, path] = rest.splice(0, 2);
  if (option === "--file") files.push(path);
  else unifontPath = path;
}
const jobs = rest;
const started = performance.now();
const bytes = readFileSync(modulePath);
let memory;
// The four WASI calls wasi-libc's start-up and allocator name; nothing here writes or seeds.
const wasi = {
  fd_close: () => 0,
  fd_seek: () => 70, // ESPIPE: no files here
  fd_write: () => 8, // EBADF
  random_get: (pointer, length) => {
    new Uint8Array(memory.buffer, pointer, length).fill(0x5a);
    return 0;
  },
};
const { instance } = await WebAssembly.instantiate(bytes, { wasi_snapshot_preview1: wasi });
const abi = instance.exports;
memory = abi.memory;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
function send(text) {
  const data = encoder.encode(text);
  const at = abi.crownpager_input(data.length);
  new Uint8Array(memory.buffer, at, data.length).set(data);
  return data.length;
}
function answer() {
  return new Uint8Array(memory.buffer, abi.crownpager_output(), abi.crownpager_output_length());
}
const loaded = performance.now();
abi.crownpager_freeze();
const panelCount = abi.crownpager_panels();
const panels = decoder.decode(answer()).split("\n");
if (panels.length !== panelCount) throw new Error(`crownpager_panels said ${panelCount}, named ${panels.length}`);
for (const path of files) {
  const name = encoder.encode(path.split("/").pop());
  const data = readFileSync(path);
  const at = abi.crownpager_input(name.length + data.length);
  const input = new Uint8Array(memory.buffer, at, name.length + data.length);
  input.set(name);
  input.set(data, name.length);
  if (abi.crownpager_add_file(name.length, data.length) !== 0) throw new Error(`${path}: ${decoder.decode(answer())}`);
}
if (abi.crownpager_files() !== files.length) throw new Error(`crownpager_files: ${decoder.decode(answer())}`);
const mistakes = abi.crownpager_load(send(readFileSync(configPath, "utf8")));
if (mistakes !== 0) {
  console.error(decoder.decode(answer()));
  process.exit(1);
}
let fontFigures = "";
if (unifontPath !== null) {
  mkdirSync(out, { recursive: true });
  abi.crownpager_advance(16);
  const text = readFileSync(unifontPath);
  const begun = performance.now();
  if (abi.crownpager_unifont_begin(text.length) !== 0) throw new Error(`unifont: ${decoder.decode(answer())}`);
  for (let at = 0; at < text.length; at += 1 << 16) {
    const part = text.subarray(at, at + (1 << 16));
    const to = abi.crownpager_input(part.length);
    new Uint8Array(memory.buffer, to, part.length).set(part);
    if (abi.crownpager_unifont_add(part.length) !== 0) throw new Error(`unifont: ${decoder.decode(answer())}`);
  }
  const glyphs = abi.crownpager_unifont_end();
  if (glyphs < 0) throw new Error(`unifont: ${decoder.decode(answer())}`);
  const took = performance.now() - begun;
  for (let left = 1000; left > 0; left -= 16) abi.crownpager_advance(16);
  writeFileSync(`${out}/late.pbm`, glassPBM());
  fontFigures =
    `; GNU Unifont: ${glyphs} glyphs of ${text.length} bytes handed over and indexed in ${took.toFixed(1)} ms, ` +
    `linear memory then ${memory.buffer.byteLength / 1024} KiB`;
}

// The glass as render's PBM text (without the comment).
function glassPBM() {
  const width = abi.crownpager_glass_width();
  const height = abi.crownpager_glass_height();
  const pixels = new Uint8Array(memory.buffer, abi.crownpager_glass(), width * height);
  let text = `P1\n${width} ${height}\n`;
  for (let y = 0; y < height; y++) {
    let row = "";
    for (let x = 0; x < width; x++) row += pixels[y * width + x] ? "1" : "0";
    text += row + "\n";
  }
  return text;
}

let ticks = 0;
let tickTime = 0;
jobs.forEach((job, number) => {
  const [panel, script] = job.split("|");
  const index = panels.indexOf(panel);
  if (index < 0 || abi.crownpager_choose_panel(index) !== 0) throw new Error(`no panel ${panel}`);
  const count = abi.crownpager_render(send(script));
  const text = decoder.decode(answer());
  if (count < 0) throw new Error(`script ${script}: ${text}`);
  const folder = `${out}/${number}`;
  mkdirSync(folder, { recursive: true });
  const files = text.split(/(?=^P1$)/m);
  if (files.length !== count) throw new Error(`crownpager_render said ${count} frames, gave ${files.length}`);
  for (const file of files) {
    const name = /^# (\S+) at /m.exec(file)[1];
    writeFileSync(`${folder}/${name}.pbm`, file);
  }
  // The same frames as render --gif writes them: scale 4, white on black.
  const gifLength = abi.crownpager_gif(send(script), 4, 0xffffff, 0x000000);
  if (gifLength < 0) throw new Error(`script ${script}: ${decoder.decode(answer())}`);
  writeFileSync(`${out}/${number}.gif`, answer());
  // Live: the steps at render's spacing (400 ms), each turn or press at its time, 16 ms a tick.
  abi.crownpager_choose_panel(index); // from the first page again
  const advance = (milliseconds) => {
    for (let left = milliseconds; left > 0; left -= 16) {
      const begun = performance.now();
      abi.crownpager_advance(Math.min(16, left));
      tickTime += performance.now() - begun;
      ticks++;
    }
  };
  for (const step of script.split(",").map((word) => word.trim())) {
    if (/^[+-]\d+$/.test(step)) {
      abi.crownpager_turn(Number(step));
      advance(400);
    } else if (step === "press" || step === "long-press") {
      abi.crownpager_press(1);
      advance(step === "press" ? 80 : 800);
      abi.crownpager_press(0);
      advance(step === "press" ? 320 : 400);
    } else if (step.startsWith("wait ")) {
      advance(Number(/wait (\d+)s/.exec(step)[1]) * 1000);
    } else throw new Error(`run-module.mjs cannot turn '${step}' live`);
  }
  advance(1000);
  writeFileSync(`${folder}/live.pbm`, glassPBM());
});
console.log(
  `run-module: ${bytes.length} bytes instantiated in ${(loaded - started).toFixed(1)} ms; ` +
    `${ticks} live ticks of 16 ms, ${(tickTime / Math.max(1, ticks)).toFixed(3)} ms each on average; ` +
    `linear memory ${memory.buffer.byteLength / 1024} KiB${fontFigures}`,
);
