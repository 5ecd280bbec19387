export { type Delivered, type EventBus, memoryBus, redisBus, topics } from './bus.ts'
export { announce } from './publish.ts'
