/**
 * The gateway model of one sequence (deliberately small): the resources this sequence created, the
 * states the contract allows them to be in, the idempotency keys it used with their bodies, and the
 * balance effects it can attribute to itself.
 *
 * Contract, gateway-api.md "States and transitions": PIX charge pending → paid (POST …/pay, sandbox);
 * PIX transfer (creation, sandbox) → banking_processing → completed (POST …/complete, sandbox,
 * balance covers the amount); card charge paid or refused at creation (sandbox token rule). "Transitions
 * are atomic: concurrent confirmations of the same resource never apply the effect twice."
 *
 * Concurrency: other test files use the same sandbox account at the same time, so the sandbox balance
 * moves for reasons this sequence does not own. The model never predicts nor judges the balance: the
 * balance around its own pay or card sale is recorded in the step log only (issue 14); the balance and
 * card suites judge the credit. Every judgement is a rule of harness/rules/gateway/ (the sections'
 * modules; `GATEWAY_MODEL_RULES` in index.ts lists them); commands only act and hand observations over.
 */
import type { GatewayClient, TransferRequest } from '../../../harness/http/gateway-client.js';
import type { ModelContext } from '../../../harness/run/model.js';
import { PickingCommand } from '../../../harness/run/model.js';

export type ChargeState = 'pending' | 'paid';
export type TransferState = 'banking_processing' | 'pending' | 'completed' | 'refused';

export interface ModelCharge {
  ref: string;
  id: string;
  amount: number;
  fees: number;
  status: ChargeState;
}

export interface ModelTransfer {
  ref: string;
  id: string;
  key: string;
  body: TransferRequest;
  status: TransferState;
  /** created far above the balance by CompleteOverdrawn: never funded, never expected to complete */
  overdrawn?: boolean;
  /** the pix.balance read just before an overdrawn transfer was created (cents) */
  overdrawnBalance?: number;
  /**
   * an unfunded /complete was refused: the transfer may stay banking_processing or have moved to
   * refused ("States: … `refused`"; which transitions lead there is not shown)
   */
  refusable?: boolean;
}

export interface ModelCard {
  ref: string;
  id: string;
  status: 'paid' | 'refused';
}

export interface ModelWebhook {
  ref: string;
  id: string;
  deleted: boolean;
}

export interface GatewayModel {
  charges: ModelCharge[];
  transfers: ModelTransfer[];
  cards: ModelCard[];
  webhooks: ModelWebhook[];
}

export interface GatewayReal extends ModelContext {
  gw: GatewayClient;
  /** where the target reaches the run's receiver at `path` */
  callbackUrl: (path: string) => string;
}

export function newGatewayModel(): GatewayModel {
  return { charges: [], transfers: [], cards: [], webhooks: [] };
}

/** A command on one of the model's charges, transfers or webhooks (see PickingCommand). */
export abstract class OnCharge extends PickingCommand<GatewayModel, GatewayReal, ModelCharge> {}
export abstract class OnTransfer extends PickingCommand<GatewayModel, GatewayReal, ModelTransfer> {}
export abstract class OnWebhook extends PickingCommand<GatewayModel, GatewayReal, ModelWebhook> {}
