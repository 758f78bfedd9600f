/*
 * referee_learn.h (private to the referee binary) - the trainer `referee
 * play`'s learning window uses (playsrv.h's struct playsrv_trainer): the
 * learner and series of learn/train.h, the trainer of `engine train`,
 * handed to the server from this layer, which sees both.
 */
#ifndef ARENA_CLI_REFEREE_LEARN_H
#define ARENA_CLI_REFEREE_LEARN_H

#include "arena/playsrv.h"

extern const struct playsrv_trainer referee_trainer;

#endif
