// The saxon-js package ships no types: just what test/einvoice/validate.ts uses.
declare module "saxon-js" {
  interface TransformOptions {
    stylesheetInternal?: unknown;
    stylesheetText?: string;
    sourceText?: string;
    destination?: "raw" | "serialized" | "document" | "application";
  }
  interface XPathOptions {
    namespaceContext?: Record<string, string>;
    params?: Record<string, unknown>;
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: "async"): Promise<{ principalResult: unknown }>;
    XPath: { evaluate(xpath: string, context: unknown, options?: XPathOptions): unknown };
  };
  export default SaxonJS;
}
