//! A loaded spec's tool definition in each provider's dialect, lowered to what the provider
//! takes, with the list of what it does not show ([`toolargs_core::dialect::lower`]): the
//! spec enforces the full schema either way.

use serde_json::Value;
use toolargs_core::dialect::{lower, Dialect, Lowering};
use toolargs_core::effect::Effect;

use crate::Spec;

impl Spec {
    /// The arguments' JSON Schema as loaded (a tool that declares no parameters has the
    /// schema of an empty object).
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// The tool's definition in `dialect`, in the shape that provider's API takes (OpenAI
    /// chat: `{"type": "function", "function": {...}}`), its schema lowered to what the
    /// provider accepts; [`Spec::lowering`] lists what changed.
    ///
    /// The name is the definition's, else the schema's `title`, else `tool`; MCP's
    /// annotations are those of the spec's effect (destructive when none is known, as MCP
    /// assumes).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolargs_core::Dialect;
    /// use toolargs_dynamic::Spec;
    ///
    /// let spec = Spec::from_tool_definition(&json!({
    ///     "name": "refund",
    ///     "inputSchema": {
    ///         "type": "object",
    ///         "properties": {
    ///             "amount_cents": {"type": "integer", "minimum": 1},
    ///             "reason": {"type": "string", "maxLength": 200}
    ///         },
    ///         "required": ["amount_cents"]
    ///     }
    /// }))?;
    /// let tool = spec.tool_definition(Dialect::OpenAiChat { strict: true });
    /// assert_eq!(tool["function"]["strict"], json!(true));
    /// assert_eq!(tool["function"]["parameters"]["required"], json!(["amount_cents", "reason"]));
    /// let changes = spec.lowering(Dialect::OpenAiChat { strict: true }).changes;
    /// assert_eq!(changes[0].path, "/properties/reason");
    /// assert_eq!(changes[0].keyword, "maxLength");
    /// assert!(changes[0].enforced);
    /// # Ok::<(), toolargs_dynamic::LoadError>(())
    /// ```
    pub fn tool_definition(&self, dialect: Dialect) -> Value {
        self.lowering(dialect).definition
    }

    /// The tool's definition in `dialect` with what it does not show as the schema says,
    /// keyword by keyword ([`Lowering::changes`]).
    pub fn lowering(&self, dialect: Dialect) -> Lowering {
        let name = self
            .name()
            .or_else(|| self.schema.get("title").and_then(Value::as_str))
            .unwrap_or("tool");
        let effect = self.effect().unwrap_or(Effect::Destructive);
        lower(dialect, name, self.description(), effect, &self.schema)
    }
}
