//! A client's photo: sent as a data URL, checked by its content.

use salvo::prelude::*;
use serde::{Deserialize, Serialize};

use super::body::json;
use super::client_route::ClientRoute;
use super::clients::send_file;
use super::error::{AppError, AppResult};
use crate::domain::image::{self, ImageError};

#[derive(Deserialize)]
struct PhotoInput {
    photo: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PhotoSaved {
    photo_url: Option<String>,
}

/// `POST /api/clients/{id}/photo` `{photo: data URL}`; a `userId` sent
/// along is ignored.
#[handler]
pub async fn upload(req: &mut Request, depot: &mut Depot) -> AppResult<Json<PhotoSaved>> {
    let route = ClientRoute::of(req, depot)?;
    route.state.ensure_room(image::DATA_URL_MAX as u64)?;
    let input: PhotoInput = json(req, image::DATA_URL_MAX + 1024).await?;
    let (mime, bytes) = image::from_data_url(&input.photo).map_err(|e| match e {
        ImageError::TooLarge | ImageError::TooManyPixels => {
            AppError::too_large("Photo size is too large. Please use a smaller image or compress the photo.")
        }
        ImageError::Malformed => AppError::bad_request("The photo is not a data URL"),
        ImageError::Unsupported => AppError::unsupported("The photo must be a JPEG, PNG or WebP image"),
        ImageError::Unreadable => AppError::unsupported("The photo cannot be read: its size is not in its header"),
    })?;
    let client = route.run(move |mine, id| mine.set_client_photo(id, mime, &bytes)).await?;
    Ok(Json(PhotoSaved { photo_url: client.photo_url() }))
}

/// `GET /api/clients/{id}/photo`.
#[handler]
pub async fn read(req: &mut Request, depot: &mut Depot, res: &mut Response) -> AppResult<()> {
    send_file(req, depot, res, |client| client.photo, "No photo available").await
}
