/**
 * The API requests the runner is answering. S3 notifies a function of an object asynchronously, as
 * a rule after the request that stored it has been answered; s3rver, in the runner's own process,
 * reports the object while that request is still running (its metadata not written yet). The object
 * events wait for the requests in flight when they arrived (object-events.ts), as they would in AWS.
 */
export interface RequestsInFlight {
  /** Counts `answer` in flight until it settles; returns it. */
  track<T>(answer: Promise<T>): Promise<T>;
  /** Resolves once every request in flight now has settled (requests arriving later are not waited for). */
  settled(): Promise<void>;
}

export function requestsInFlight(): RequestsInFlight {
  const running = new Set<Promise<unknown>>();
  return {
    track(answer) {
      running.add(answer);
      answer.then(
        () => running.delete(answer),
        () => running.delete(answer),
      );
      return answer;
    },
    async settled() {
      await Promise.allSettled([...running]);
    },
  };
}
