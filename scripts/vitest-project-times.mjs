// A vitest reporter for `npm test` (scripts/test.mjs): per project, its files, its tests and the time they
// took — import, set-up and tests, summed over its files — written as JSON to $VITEST_PROJECT_TIMES.
import fs from 'node:fs'

export default class ProjectTimes {
  onTestRunEnd(testModules) {
    const projects = {}
    for (const module of testModules) {
      const d = module.diagnostic()
      const p = (projects[module.project.name || 'default'] ??= { files: 0, tests: 0, ms: 0 })
      p.files += 1
      p.tests += [...module.children.allTests()].length
      p.ms += d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration
    }
    if (process.env.VITEST_PROJECT_TIMES) fs.writeFileSync(process.env.VITEST_PROJECT_TIMES, JSON.stringify(projects))
  }
}
