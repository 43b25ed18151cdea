// Stylesheets are imported for their side effect; esbuild emits them as CSS files.
declare module "*.css";
