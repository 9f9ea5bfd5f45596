/**
 * `@agent-tools/restate/testing`: a harness around the real Restate server
 * for tests and fault-injection benchmarks: start `restate-server` from npm,
 * run an endpoint in a child process that can be SIGKILLed and restarted on
 * the same port, register it, invoke handlers through the ingress.
 *
 * @packageDocumentation
 */
export { startRestateServer, restateServerBinary } from "./restate-server.js";
export type { RestateServer, StartRestateServerOptions } from "./restate-server.js";
export { endpointPort, startEndpointProcess } from "./endpoint-process.js";
export type { EndpointProcess, StartEndpointProcessOptions } from "./endpoint-process.js";
export { invokeHandler } from "./ingress.js";
export type { InvocationOutcome, InvokeHandlerOptions } from "./ingress.js";
export { freePort, waitUntil } from "./free-port.js";
export { installPromiseWithResolvers } from "../promise-with-resolvers.js";
