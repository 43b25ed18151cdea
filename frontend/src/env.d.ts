// Stylesheets are imported for their side effect; esbuild emits them as CSS files.
declare module "*.css";

/** Where the recorder's audio worklet is served; build.mjs fills it in. */
declare const RECORDER_WORKLET_URL: string;
