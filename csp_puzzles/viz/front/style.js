// The widgets' style: JupyterLab's theme variables, with fallbacks for exported pages.
// The picture keeps its own light paper (its colours are the puzzle's), the rest follows the
// theme. Text is at least 4.5:1 against its background, marks and controls at least 3:1.

const CSS = `
.csp-stepper, .csp-playground, .csp-picture {
  --cx-fg: var(--jp-ui-font-color1, #1f1f1f);
  --cx-muted: var(--jp-ui-font-color1, #3d3d3d);
  --cx-bg: var(--jp-layout-color0, #fff);
  --cx-raised: var(--jp-layout-color2, #eee);
  --cx-line: var(--jp-ui-font-color2, #757575);
  --cx-accent: var(--jp-brand-color1, #1976d2);
  --cx-node: var(--jp-layout-color0, #fff);
  font-family: var(--jp-ui-font-family, system-ui, sans-serif); font-size: 14px; color: var(--cx-fg);
  background: var(--cx-bg); border: 1px solid var(--cx-line); border-radius: 6px; padding: 8px;
  max-width: 100%; box-sizing: border-box; }
.csp-stepper:focus-visible, .csp-playground:focus-visible { outline: 3px solid var(--cx-accent); outline-offset: 2px; }
.csp-stepper button, .csp-stepper select, .csp-playground button, .csp-playground select {
  font: inherit; font-size: 14px; color: var(--cx-fg); background: var(--cx-raised);
  border: 1px solid var(--cx-line); border-radius: 4px; min-height: 28px; min-width: 28px; cursor: pointer; }
.csp-stepper button:focus-visible, .csp-stepper select:focus-visible, .csp-stepper input:focus-visible,
.csp-playground button:focus-visible, .csp-playground select:focus-visible {
  outline: 3px solid var(--cx-accent); outline-offset: 1px; }
.cx-main { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
.cx-picture { flex: 3 1 340px; min-width: 0; border-radius: 4px; }
.cx-picture svg { width: 100%; height: auto; display: block; }
.cx-picture.cx-previewing svg { outline: 3px dashed var(--cx-accent); outline-offset: 2px; }
.cx-picture .cx-var { cursor: pointer; }
.cx-picture .cx-var:focus, .cx-tree .cx-node:focus { outline: none; }
.cx-picture img { max-width: 100%; }
.cx-side { flex: 2 1 260px; min-width: min(240px, 100%); display: flex; flex-direction: column; gap: 8px; }
.cx-tree { border: 1px solid var(--cx-line); border-radius: 4px; max-height: 360px; overflow: auto; }
.cx-tree svg { display: block; }
.cx-tree .cx-node { cursor: pointer; }
.cx-tree .cx-mark { stroke: var(--cx-fg); stroke-width: 1; }
.cx-tree .cx-current .cx-mark { stroke-width: 3; }
.cx-tree .cx-later { opacity: 0.45; }
.cx-tree .cx-edge { stroke: var(--cx-line); stroke-width: 1; }
.cx-tree .cx-on-path { stroke: var(--cx-accent); stroke-width: 3; }
.cx-tree .cx-ring { fill: none; stroke: var(--cx-accent); stroke-width: 3; visibility: hidden; }
.cx-tree .cx-node:focus .cx-ring { visibility: visible; }
.cx-tree .cx-node-label { fill: var(--cx-fg); font-weight: bold; stroke: var(--cx-bg); stroke-width: 3px;
  paint-order: stroke; }
.cx-caption { font-size: 13px; color: var(--cx-muted); margin: 2px 4px; }
.cx-why { border: 1px solid var(--cx-line); border-radius: 4px; padding: 4px 8px; font-size: 13px;
  max-height: 240px; overflow: auto; }
.cx-why-head { font-weight: bold; }
.cx-pin { font-weight: normal; }
.cx-why ul { margin: 2px 0; padding-left: 6px; list-style: none; }
.cx-why button.cx-link { background: none; border: none; padding: 2px 0; min-height: 24px; text-align: left;
  color: var(--cx-fg); text-decoration: underline; font-size: 13px; }
.csp-stepper .cx-stats { font-size: 13px; border-collapse: collapse; margin: 0; }
.csp-stepper .cx-stats th { font-weight: normal; text-align: left; padding: 0 6px; }
.csp-stepper .cx-stats td { padding: 0 6px; text-align: right; font-weight: bold; border: none; }
.cx-text { font-weight: bold; margin: 8px 2px 4px; min-height: 1.4em; }
.cx-live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  clip-path: inset(50%); white-space: nowrap; }
.cx-controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.cx-controls button { min-width: 2.4em; }
.cx-label { font-size: 13px; display: inline-flex; align-items: center; gap: 4px; }
.cx-slider { flex: 1 1 200px; }
.cx-slider input { flex: 1 1 auto; min-width: 120px; accent-color: var(--cx-accent); }
.cx-note:not(:empty) { font-size: 13px; border-left: 4px solid #c62828; padding-left: 6px; }
.cx-runs { display: flex; flex-wrap: wrap; gap: 6px; margin-bottom: 6px; }
.csp-stepper button.cx-run { display: flex; flex-direction: column; align-items: stretch; padding: 2px;
  background: var(--cx-bg); text-align: center; }
.csp-stepper button.cx-run.cx-chosen { border: 3px solid var(--cx-accent); }
.cx-bar { display: block; height: 6px; background: var(--cx-accent); }
.cx-mini { display: block; max-width: 220px; max-height: 120px; overflow: hidden; }
.cx-predict { border: 1px solid var(--cx-line); border-radius: 4px; padding: 4px 8px; font-size: 13px; }
.cx-predict-body:empty { display: none; }
.cx-question { margin: 4px 0; }
.cx-values { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 4px 0; }
.csp-stepper button[aria-pressed="true"], .csp-playground button[aria-pressed="true"] {
  border: 2px solid var(--cx-fg); font-weight: bold; text-decoration: underline; }
.cx-feedback:not(:empty) { margin: 4px 0; font-weight: bold; }
.cx-answer { min-height: 1.4em; margin: 2px 2px 8px; }
.cx-status { margin-top: 2px; }
.cx-note-offline { border-left: 4px solid var(--cx-accent); padding: 4px 8px; margin: 0 0 8px; }
.cx-queue:empty, .csp-playground .cx-why:empty { display: none; }
.cx-graph { max-width: 720px; margin-top: 4px; }
.cx-graph-box summary, .cx-search-box summary { cursor: pointer; margin: 6px 0; min-height: 24px; }
.cx-search-box .cx-tree { max-height: 300px; }
.csp-playground .cx-picture svg { touch-action: none; -webkit-user-select: none; user-select: none; }
.csp-playground .cx-island { cursor: grab; }
.csp-playground .cx-island:focus { outline: none; }
.csp-playground .cx-side { flex: 1 1 300px; }
.csp-playground .cx-answer { min-height: 2.8em; margin: 4px 2px; padding: 4px 6px; border-left: 4px solid var(--cx-accent); }
.csp-playground .cx-status { font-weight: normal; font-size: 13px; margin: 0 2px 4px; }
.csp-playground .cx-settings { font-size: 13px; }
.csp-playground .cx-solver button { font-size: 13px; }
.csp-playground .cx-help { margin-top: 4px; }
.cx-queue-now { margin: 4px 2px; }
.cx-arc { cursor: pointer; }
.cx-arc:focus { outline: none; }
.cx-arc:focus line:first-child { stroke-opacity: 1; }
.csp-playground .cx-why .cx-entry { margin: 2px 0; }
.cx-preview:not([hidden]) { font-style: italic; }
.csp-playground .cx-zoom { display: flex; flex-direction: column; align-items: flex-start; gap: 4px; margin: 4px 0; }
.csp-playground .cx-zoom [hidden] { display: none; }
.csp-playground .cx-zoom button[aria-disabled="true"] { border-style: dashed; cursor: default; }
.csp-playground .cx-hint-steps li[aria-current="step"] { font-weight: bold; border-left: 4px solid var(--cx-accent);
  padding-left: 4px; }
@media (prefers-reduced-motion: reduce) { .csp-stepper *, .csp-playground * { transition: none !important; scroll-behavior: auto !important; } }
`;

function ensureStyle() {
  if (document.getElementById("csp-explorer-style")) return;
  const style = html("style", { id: "csp-explorer-style" }, document.head);
  style.textContent = CSS;
}
