"""Rising Sun bots: the world sampler and the evaluation the heuristic and the search share."""
