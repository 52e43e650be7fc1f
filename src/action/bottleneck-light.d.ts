// bottleneck's light build (no Redis), the one @octokit/plugin-throttling loads, ships without
// types of its own: its API is the full build's.
declare module "bottleneck/light.js" {
  import Bottleneck from "bottleneck";
  export default Bottleneck;
}
