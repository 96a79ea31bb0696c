/** A push as retrieved: its download links (file pushes), as the API and the pages present them. */
export interface FileLink {
  filename: string;
  content_type: string;
  size: number;
  url: string;
}
