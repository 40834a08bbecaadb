// esbuild's `text` loader turns this stylesheet into a string (see esbuild.mjs, loader '.css').
declare module 'uplot/dist/uPlot.min.css' {
  const text: string;
  export default text;
}
