//! Refuses state-changing calls made by another site's page.
//!
//! Browsers send `Origin` on every cross-origin write (and on same-origin
//! ones too); calls without it come from tools such as curl, which carry no
//! victim's cookies.

use salvo::http::Method;
use salvo::prelude::*;

use super::error::AppError;
use super::state::state;

#[handler]
pub async fn same_origin_writes(req: &mut Request, depot: &mut Depot, res: &mut Response, ctrl: &mut FlowCtrl) {
    if matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        return;
    }
    let allowed = match state(depot) {
        Ok(state) => state.allowed_origins.clone(),
        Err(e) => {
            res.render(e);
            ctrl.skip_rest();
            return;
        }
    };
    let origin = req.header::<String>("origin").map(|o| crate::settings::origin_of(&o));
    let cross_site = req.header::<String>("sec-fetch-site").is_some_and(|s| s == "cross-site");
    let foreign = origin.is_some_and(|o| !allowed.contains(&o));
    if foreign || cross_site {
        res.render(AppError::forbidden("Cross-site request refused"));
        ctrl.skip_rest();
    }
}
