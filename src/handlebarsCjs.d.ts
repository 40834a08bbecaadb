// dotprompt renders with the CommonJS build of Handlebars (this path), which is a different module from the
// package's `main`: the prompt core imports the same file so that its partials and parse share dotprompt's copy.
declare module 'handlebars/dist/cjs/handlebars.js' {
  import Handlebars from 'handlebars';
  export default Handlebars;
}
