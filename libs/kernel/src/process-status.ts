/** Every process (api, node, edge, standalone) answers this with its `ProcessStatus`: the cluster page lists them. */
export const PROCESS_STATUS_SUBJECT = 'cluster.control.process';

export interface ProcessStatus {
  role: string;
  /** NODE_ID: the name it goes by in logs and on the bus. */
  nodeId: string;
  host: string;
  pid: number;
  startedAt: string;
}
