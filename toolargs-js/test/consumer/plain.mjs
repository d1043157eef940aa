// Bundled by tests/npm.rs with esbuild for Node.js as is, without `toolargs/init`: the `node`
// entry, away from the module's file, says what to do instead of failing on a path.
import { Spec } from "toolargs";

console.log(new Spec({ type: "object" }).parse("{}").ok);
