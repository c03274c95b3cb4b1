// Remove the build outputs (dist, build) before a build.
import { rmSync } from "node:fs";
for (const folder of ["dist", "build"]) rmSync(new URL(`../${folder}`, import.meta.url), { recursive: true, force: true });
