// wink-nlp types its utilities under their extension-less names, but Node's ESM loader needs the
// file's extension (the package has no exports map), so the import names the .js file.
declare module 'wink-nlp/utilities/bm25-vectorizer.js' {
  export * from 'wink-nlp/utilities/bm25-vectorizer';
  export { default } from 'wink-nlp/utilities/bm25-vectorizer';
}
