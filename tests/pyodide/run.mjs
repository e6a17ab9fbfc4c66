// Boots Pyodide in Node, offline, and runs program.py's main() (see tests/test_pyodide.py).
// Arguments: the pyodide package folder, the micropip wheel, a JSON file of inputs,
// the program. Wheels named in the inputs are copied into Pyodide's file system.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, micropipWheel, inputsPath, programPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const started = performance.now();
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
console.log(JSON.stringify({ step: "boot Pyodide", seconds: (performance.now() - started) / 1000 }));

const inputs = JSON.parse(readFileSync(inputsPath, "utf8"));
pyodide.FS.mkdirTree("/wheels");
inputs.wheels = inputs.wheels.map((path) => {
  const target = `/wheels/${basename(path)}`;
  pyodide.FS.writeFile(target, readFileSync(path));
  return target;
});
pyodide.FS.writeFile("/inputs.json", JSON.stringify(inputs));
await pyodide.loadPackage(micropipWheel, { messageCallback: () => {} });
pyodide.runPython(readFileSync(programPath, "utf8"));
await pyodide.runPythonAsync("await main()");
