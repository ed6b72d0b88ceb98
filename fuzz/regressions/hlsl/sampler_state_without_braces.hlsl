3SamplerState s = sampler_state '}';
