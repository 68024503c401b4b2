import { Need, PurchaseAnswers, PurchaseQuery } from '../model/purchase-decisions.types';
import { quotePurchase, registrarFailure } from '../purchase-quote';
import { liveDomainExists } from '../store/purchase-lookups.queries';
import { PurchaseActorDeps } from './purchase-checkpoint';

/**
 * Gathers what a purchase decision asks for (the live price, a Domain's existence) before it is
 * decided: the decider runs again with each answer until it decides. A failed lookup fails the
 * command with nothing written (a refusal is the registrar's 502, an outage a 503).
 */
export class PurchaseInputs {
  constructor(private readonly deps: PurchaseActorDeps) {}

  async decide<T extends object>(decide: (answers: PurchaseAnswers) => T | Need): Promise<T> {
    const answers: PurchaseAnswers = {};
    for (;;) {
      const outcome = decide(answers);
      if (!('need' in outcome)) return outcome;
      await this.answer(outcome.need, answers);
    }
  }

  private async answer(query: PurchaseQuery, answers: PurchaseAnswers): Promise<void> {
    switch (query.type) {
      case 'quote':
        answers.quote = await quotePurchase(this.deps.db, this.deps.registrar, this.deps.fees, query.order);
        return;
      case 'domain_exists':
        answers.domainExists = await liveDomainExists(this.deps.db, query.domainId);
        return;
      case 'renewal_price': {
        const price = await this.deps.registrar.renewalPrice(query.hostname, query.years).catch(registrarFailure);
        answers.renewalWholesaleCents = price.wholesaleCents;
        return;
      }
    }
  }
}
