"""The Decision Transformer (Chen et al. 2021) of core/rl/decision_transformer.hpp on the shared blocks.

Step i of a segment gives three tokens, in this order: the return-to-go, the state and the action,
each its Linear of the input plus row min(t_i, max_timestep - 1) of the timestep table; embed_ln
normalizes every token, the causal pre-LN blocks run over the 3n tokens (no positional encoding), and
the action is read from each state token's output: tanh(predict_action(ln_f(h_{3i+1}))), which has seen
the return and state of step i and every token before them, never a_i. Parameter names, shapes and
order are ParameterLayout::for_decision's.

Like the core's decision_forward, the model reads returns-to-go already divided by the config's
return_scale, states standardized and actions divided by their bound (in [-1, 1]).
"""
import math
from dataclasses import dataclass

import torch
from torch import nn

from .models import LAYER_NORM_EPS, Block, BackboneConfig, backbone_layout


@dataclass
class DecisionConfig(BackboneConfig):
    """core/rl/decision_config.hpp: S state and A action values, context K steps (3K tokens), the rows
    of the timestep table (later steps read its last row) and the returns' scale."""
    state_dim: int = 1
    action_dim: int = 1
    context: int = 20
    max_timestep: int = 500
    return_scale: float = 1.0

    def tokens(self, steps):
        return 3 * steps

    def validate(self):
        super().validate()
        for name, high in (("state_dim", 4096), ("action_dim", 4096), ("context", 1 << 18), ("max_timestep", 1 << 20)):
            value = getattr(self, name)
            if not 1 <= value <= high:
                raise ValueError(f"{name} must be between 1 and {high}, got {value}")
        if not (math.isfinite(self.return_scale) and self.return_scale > 0):
            raise ValueError(f"return_scale must be a positive number, got {self.return_scale:g}")


def step_mask(lengths, batch, steps, device):
    """(B, n) bool, true on each segment's own steps: the first lengths[b] (all n without lengths)."""
    if lengths is None:
        return torch.ones(batch, steps, dtype=torch.bool, device=device)
    lengths = torch.as_tensor(lengths, device=device).long()
    if lengths.shape != (batch,) or bool(((lengths < 1) | (lengths > steps)).any()):
        raise ValueError(f"lengths must be {batch} numbers from 1 to {steps}")
    return torch.arange(steps, device=device)[None, :] < lengths[:, None]


class DecisionTransformer(nn.Module):
    """Segments of returns-to-go, states, actions and timesteps in, the actions predicted at every step out."""

    task = "decision"

    def __init__(self, config: DecisionConfig):
        super().__init__()
        config.validate()
        self.config = config
        d = config.d_model
        # Registered in the layout's order, so that named_parameters() follows it.
        self.embed_timestep = nn.Embedding(config.max_timestep, d)
        self.embed_return = nn.Linear(1, d)
        self.embed_state = nn.Linear(config.state_dim, d)
        self.embed_action = nn.Linear(config.action_dim, d)
        self.embed_ln = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.blocks = nn.ModuleList(Block(config) for _ in range(config.layers))
        self.ln_f = nn.LayerNorm(d, eps=LAYER_NORM_EPS)
        self.predict_action = nn.Linear(d, config.action_dim)

    def layout(self):
        c = self.config
        d, s, a = c.d_model, c.state_dim, c.action_dim
        return ([("embed_timestep.weight", (c.max_timestep, d)), ("embed_return.weight", (d, 1)),
                 ("embed_return.bias", (d,)), ("embed_state.weight", (d, s)), ("embed_state.bias", (d,)),
                 ("embed_action.weight", (d, a)), ("embed_action.bias", (d,)), ("embed_ln.weight", (d,)),
                 ("embed_ln.bias", (d,))] + backbone_layout(c) +
                [("predict_action.weight", (a, d)), ("predict_action.bias", (a,))])

    def forward(self, returns_to_go, states, actions, timesteps, lengths=None):
        """returns_to_go (B, n), states (B, n, S), actions (B, n, A), timesteps (B, n) long, n <= context;
        lengths (B,) the steps of each segment (default n): the predicted actions (B, n, A). Steps past a
        segment's length are padding, read as zeros, so they cannot change its predictions (the blocks
        are causal); their own predictions mean nothing."""
        b, n = returns_to_go.shape
        c = self.config
        if not 1 <= n <= c.context:
            raise ValueError(f"the segment has {n} steps; the model takes 1 to {c.context} (its context)")
        own = step_mask(lengths, b, n, returns_to_go.device)

        def kept(x):  # padding, whatever it holds (NaN included), becomes 0
            return torch.where(own.view(b, n, *[1] * (x.dim() - 2)), x, torch.zeros_like(x))

        timesteps = kept(timesteps.long())
        if bool((timesteps < 0).any()):
            raise ValueError(f"timestep {int(timesteps.min())} is negative")
        tokens = torch.stack([self.embed_return(kept(returns_to_go).unsqueeze(-1)), self.embed_state(kept(states)),
                              self.embed_action(kept(actions))], dim=2)  # (B, n, 3, D)
        tokens = tokens + self.embed_timestep(timesteps.clamp(max=c.max_timestep - 1)).unsqueeze(2)
        h = self.embed_ln(tokens.reshape(b, 3 * n, c.d_model))  # R_1, s_1, a_1, R_2, ...
        for block in self.blocks:
            h = block(h)
        return torch.tanh(self.predict_action(self.ln_f(h[:, 1::3])))

    def loss(self, predicted, actions, lengths=None):
        """The mean over the segments of each one's mean squared error over its own steps and A values
        (the core's decision_squared_error over n A, a batch weighing its segments alike). Padding,
        whatever it holds, adds nothing to the loss or its gradient."""
        b, n, a = predicted.shape
        own = step_mask(lengths, b, n, predicted.device).unsqueeze(-1)
        error = torch.where(own, predicted - torch.where(own, actions, torch.zeros_like(actions)),
                            torch.zeros_like(predicted))
        return ((error ** 2).sum(dim=(1, 2)) / (own.sum(dim=(1, 2)) * a).to(predicted.dtype)).mean()
