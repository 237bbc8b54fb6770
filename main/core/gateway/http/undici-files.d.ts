// The two files of undici that undici-core.ts imports by path (undici declares no `exports`, and
// types only its index): each is the CommonJS module.exports of what the index exports.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export = AgentClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.prototype.request's body, called with the dispatcher as `this`. */
  function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
  export = request;
}
