// `npm run dev`: the API with tsx (restarts on change) and the console with Vite HMR.
import { spawn } from 'node:child_process'

const env = { ...process.env, NODE_ENV: 'development', TZ: process.env.TZ ?? 'Asia/Shanghai' }
const children = [
  spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'watch', 'server/src/main.ts'], { stdio: 'inherit', env }),
  spawn(process.execPath, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:dev'], { stdio: 'inherit', env }),
]
const stop = () => children.forEach((c) => c.kill('SIGTERM'))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
