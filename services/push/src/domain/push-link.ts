/**
 * A push's recipient link: `{publicUrl}/p/TOKEN`, with `/r` when the push has the retrieval step
 * (the page asks for a click before revealing). The API's `html_url` and the emailed link are this.
 */
export const pushLink = (publicUrl: string, urlToken: string, retrievalStep: boolean): string =>
  `${publicUrl}/p/${urlToken}${retrievalStep ? '/r' : ''}`;
