/**
 * The control page's style sheet, inline in the page and allowed by its hash (page.ts). Classes
 * only, never a `style` attribute: the page's policy allows no inline style but this sheet.
 */
export const pageStyle = `
:root { color-scheme: light dark; --line: #d0d4da; --muted: #5c6470; --card: #ffffff; --page: #f4f5f7;
  --ok: #1d7a3a; --warn: #9a6100; --bad: #b3261e; --accent: #2456c7; }
@media (prefers-color-scheme: dark) {
  :root { --line: #3a404a; --muted: #a3abb7; --card: #1c2026; --page: #121519; --ok: #5cc27f; --warn: #e0a84a;
    --bad: #f07a70; --accent: #7ea6ff; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--page); }
header { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; padding: 12px 20px;
  border-bottom: 1px solid var(--line); background: var(--card); }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 15px; margin: 0 0 8px; }
main { display: grid; grid-template-columns: minmax(280px, 1fr) minmax(420px, 2fr); gap: 16px; padding: 16px 20px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: 12px 14px;
  min-width: 0; }
.wide { grid-column: 1 / -1; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; } }
.note, .muted { color: var(--muted); }
.note { margin: 0 0 8px; font-size: 13px; }
.ok { color: var(--ok); }
.bad { color: var(--bad); }
.mono, code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 10px; }
dt { color: var(--muted); }
dd { margin: 0; font-variant-numeric: tabular-nums; }
#clock-now { font-weight: 600; }
.buttons, .controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 8px 0; }
button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); border-radius: 4px; cursor: pointer;
  background: var(--page); color: inherit; }
button:hover { border-color: var(--accent); }
button:disabled { opacity: 0.5; cursor: default; }
input, select { font: inherit; padding: 2px 6px; border: 1px solid var(--line); border-radius: 4px;
  background: var(--card); color: inherit; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12.5px; white-space: nowrap; }
td.path { word-break: break-all; }
.scroll { max-height: 60vh; overflow: auto; }
.s2 { color: var(--ok); }
.s3 { color: var(--accent); }
.s4 { color: var(--warn); }
.s5, .s0 { color: var(--bad); font-weight: 600; }
#problem { margin: 12px 20px 0; padding: 8px 12px; border: 1px solid var(--bad); border-radius: 6px;
  background: var(--card); }
#problem strong { color: var(--bad); }
#problem p, #problem ul { margin: 4px 0; }
#said { margin: 8px 20px 0; min-height: 1.45em; color: var(--muted); }
form { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 6px 12px;
  margin-top: 10px; padding-top: 10px; border-top: 1px solid var(--line); }
form label { display: flex; flex-direction: column; gap: 2px; font-size: 12.5px; color: var(--muted); }
form .whole { grid-column: 1 / -1; }
`;
